import { DomainError, InvalidRequestError } from '@smsq/contracts';
import type { FastifyInstance } from 'fastify';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Marks a body that arrived but was not JSON; it is refused after the credential check. */
export const UNPARSABLE_BODY = Symbol('unparsable body');

/**
 * Bodies are read as JSON whatever their content type, and a body that is not JSON is passed on
 * marked instead of failing here: the credential is checked first (401 before 400).
 */
export function readBodiesAsJson(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, UNPARSABLE_BODY);
    }
  });
}

/** The body as a JSON object: not JSON is `invalid_json`, any other shape `invalid_request`. */
export function jsonObjectOf(body: unknown, expected: string): Record<string, unknown> {
  if (body === UNPARSABLE_BODY) throw new DomainError('invalid_json', 'the body is not valid JSON');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError(`the body must be ${expected}`);
  return body as Record<string, unknown>;
}
