import type { FastifyInstance } from 'fastify';
import { UNPARSABLE_BODY } from '../tasks/create-task-request.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

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
