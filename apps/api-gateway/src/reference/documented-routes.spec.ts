import { documentedRoutes } from '@smsq/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requireDocumentedRoutes } from './documented-routes.js';

/** A server with every documented route, as the gateway registers them, plus `extra`. */
function serverWith(extra: (fastify: ReturnType<typeof Fastify>) => void, skip?: string) {
  const fastify = Fastify();
  requireDocumentedRoutes(fastify);
  for (const route of documentedRoutes()) {
    if (route === skip) continue;
    const [method, url] = route.split(' ') as ['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string];
    fastify.route({ method, url, handler: async () => ({}) });
  }
  fastify.get('/healthz', async () => ({}));
  extra(fastify);
  return fastify;
}

describe('requireDocumentedRoutes', () => {
  it('starts when the routes under /smsapi/ are exactly the documented ones', async () => {
    const fastify = serverWith(() => {});
    await expect(fastify.ready()).resolves.toBeDefined();
    await fastify.close();
  });

  it('refuses to start with a route the document does not describe', async () => {
    const fastify = serverWith((server) => server.post('/smsapi/tasks/:id/resend', async () => ({})));
    await expect(fastify.ready()).rejects.toThrow('POST /smsapi/tasks/:id/resend is not documented');
  });

  it('refuses to start when the document describes a route that is not served', async () => {
    const fastify = serverWith(() => {}, 'POST /smsapi/tasks/:id/cancel');
    await expect(fastify.ready()).rejects.toThrow('POST /smsapi/tasks/:id/cancel is documented but not served');
  });
});
