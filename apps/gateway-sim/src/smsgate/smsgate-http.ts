import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { createHttpAdapter, readBodiesAsJson } from '@smsq/platform';

const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The HTTP server of SMSGate mode. The app checks credentials before it reads a body, so a body
 * that is not JSON is refused by the route (400 `{"message": …}`) after the Basic check, not by
 * the parser before it.
 */
export function smsGateHttp(): { fastify: FastifyAdapter; bodyParser: false } {
  const fastify = createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES });
  readBodiesAsJson(fastify.getInstance(), { bodyLimit: BODY_LIMIT_BYTES, notJson: 'mark' });
  return { fastify, bodyParser: false };
}
