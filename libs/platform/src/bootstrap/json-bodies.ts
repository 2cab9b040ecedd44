import { DomainError, InvalidRequestError } from '@smsq/contracts';
import { errorCodes, type FastifyInstance } from 'fastify';

/** Marks a body that arrived but was not JSON, for apps that refuse it after their credential check. */
export const UNPARSABLE_BODY = Symbol('unparsable body');

/**
 * How far past its limit a declared body is still read (and dropped) before the 413: a client
 * sends its whole body before reading the answer, so closing at once fails it with EPIPE instead.
 */
const DRAINED_BODY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Bodies are read as JSON whatever their declared content type (a malformed one included, which
 * Fastify would otherwise refuse before any credential is checked); an empty body is no body. A
 * body that is not JSON is either marked (`mark`: the route decides when to refuse it) or refused
 * at once with `invalid_json` (`refuse`).
 */
export function readBodiesAsJson(fastify: FastifyInstance, options: { bodyLimit: number; notJson: 'mark' | 'refuse' }): void {
  fastify.addHook('onRequest', async (request) => {
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) {
      request.headers['content-type'] = 'application/json';
    }
  });
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    const declared = Number(request.headers['content-length']);
    if (!(declared > request.routeOptions.bodyLimit) || declared > DRAINED_BODY_MAX_BYTES) return payload;
    for await (const _chunk of payload) {
      // dropped
    }
    throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: options.bodyLimit }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      if (options.notJson === 'mark') done(null, UNPARSABLE_BODY);
      else done(new DomainError('invalid_json', 'the body is not valid JSON'), undefined);
    }
  });
}

/** Gives the routes at `urls` a body limit of their own, above the server's; it is checked before the body is read. */
export function raiseBodyLimit(fastify: FastifyInstance, urls: readonly string[], bodyLimit: number): void {
  fastify.addHook('onRoute', (route) => {
    if (urls.includes(route.url)) route.bodyLimit = bodyLimit;
  });
}

/** A body as a JSON object: not JSON (`UNPARSABLE_BODY`) is `invalid_json`, any other shape `invalid_request` naming what was `expected`. */
export function jsonObjectOf(body: unknown, expected: string): Record<string, unknown> {
  if (body === UNPARSABLE_BODY) throw new DomainError('invalid_json', 'the body is not valid JSON');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError(`the body must be ${expected}`);
  return body as Record<string, unknown>;
}
