import { DomainError } from '@smsq/contracts';
import type { FastifyInstance } from 'fastify';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Bodies are JSON whatever their declared type (the CSRF header already rules out plain HTML
 * forms); an empty body is no body; one that is not JSON is `invalid_json`. Too large a body is
 * Fastify's 413, which the exception filter answers as `payload_too_large`.
 */
export function readBodiesAsJson(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new DomainError('invalid_json', 'the body is not valid JSON'), undefined);
    }
  });
}
