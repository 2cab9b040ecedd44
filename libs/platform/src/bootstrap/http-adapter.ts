import type { ErrorBody } from '@smsq/contracts';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';

/**
 * Every service's HTTP server. Errors Fastify raises before routing (a path that is not valid
 * percent-encoding, say) answer in the contract's shape too, and never quote the URL. With
 * `trustProxy` (the proxies' addresses or CIDRs), the client's address is read from
 * X-Forwarded-For as those proxies set it; without, it is the connection's.
 */
export function createHttpAdapter(options: { bodyLimit?: number; trustProxy?: string[] } = {}): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (_error: unknown, _request: unknown, reply: FastifyReply) => {
      const body: ErrorBody = { error: 'invalid_request', detail: 'the request URL is not valid' };
      void reply.code(400).header('content-type', 'application/json; charset=utf-8').send(body);
    },
  });
}
