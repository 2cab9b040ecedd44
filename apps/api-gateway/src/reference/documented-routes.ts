import { documentedRoutes } from '@smsq/contracts';
import type { FastifyInstance } from 'fastify';

const PUBLIC_PREFIX = '/smsapi/';

/**
 * The gateway will not start when its public routes and the OpenAPI document differ: every route
 * under /smsapi/ is learnt as it is registered and compared with the document's before listening.
 */
export function requireDocumentedRoutes(fastify: FastifyInstance): void {
  const registered = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(PUBLIC_PREFIX)) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') registered.add(`${method} ${route.url.replace(/\/$/, '')}`);
  });
  fastify.addHook('onReady', async () => {
    const problems = routeDocumentationProblems(registered, new Set<string>(documentedRoutes()));
    if (problems.length > 0) throw new Error(`the OpenAPI document and the routes differ: ${problems.join('; ')}`);
  });
}

export function routeDocumentationProblems(registered: ReadonlySet<string>, documented: ReadonlySet<string>): string[] {
  return [
    ...[...registered].filter((route) => !documented.has(route)).map((route) => `${route} is not documented`),
    ...[...documented].filter((route) => !registered.has(route)).map((route) => `${route} is documented but not served`),
  ];
}
