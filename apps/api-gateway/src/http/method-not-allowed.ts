import type { ErrorBody } from '@smsq/contracts';
import type { FastifyInstance } from 'fastify';

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * A wrong method on a known path answers 405 with `Allow`, not Fastify's 404. The known paths
 * are learnt from the routes as they are registered, so the list can never fall behind them.
 */
export function answerWrongMethodWith405(fastify: FastifyInstance): void {
  const known = new Map<string, KnownPath>();
  fastify.addHook('onRoute', (route) => {
    const entry = known.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    known.set(route.url, entry);
  });
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== undefined) return;
    const path = request.url.split('?', 1)[0] ?? '';
    const match = [...known.values()].find((entry) => entry.pattern.test(path));
    if (!match) return;
    const allow = [...match.methods].join(', ');
    const body: ErrorBody = { error: 'method_not_allowed', detail: `${request.method} is not allowed here; use ${allow}` };
    return reply.code(405).header('Allow', allow).send(body);
  });
}

function pathPattern(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}
