import type { FastifyInstance } from 'fastify';
import { csrfBindingOf } from '../auth/browser-cookies.js';
import { isValidCsrfToken } from '../auth/csrf-token.js';
import { isApiPath } from './security-headers.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Fetch metadata the browser sends with a request it knows comes from this origin, or from the user (address bar). */
const ACCEPTED_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Every state-changing API request carries `X-CSRF-Token`, the token tied to its session or
 * pre-session cookie; otherwise 403 `csrf_failed`, before its body is even read. A browser that
 * says the request comes from another site is refused as well. `csrf_failed` is the dashboard's
 * own code: the public API never answers it.
 */
export function checkCsrfTokens(fastify: FastifyInstance, options: { secret: string; namespace: string }): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!STATE_CHANGING.has(request.method) || !isApiPath(request.url)) return;
    const fetchSite = request.headers['sec-fetch-site'];
    const crossSite = typeof fetchSite === 'string' && !ACCEPTED_FETCH_SITES.has(fetchSite);
    if (!crossSite && isValidCsrfToken(options.secret, csrfBindingOf(request, options.namespace), request.headers['x-csrf-token'])) return;
    return reply
      .code(403)
      .header('content-type', 'application/json; charset=utf-8')
      .send({ error: 'csrf_failed', detail: 'this request needs the X-CSRF-Token header with the token from GET /api/auth/session' });
  });
}
