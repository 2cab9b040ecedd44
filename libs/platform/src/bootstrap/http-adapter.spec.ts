import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpAdapter } from './http-adapter.js';

describe('createHttpAdapter', () => {
  let fastify: FastifyInstance | undefined;

  afterEach(async () => {
    await fastify?.close();
  });

  /** The client address the server sees for a request that says it was forwarded for 203.0.113.9. */
  async function clientAddress(trustProxy?: string[]): Promise<string> {
    const server = createHttpAdapter({ trustProxy }).getInstance();
    fastify = server;
    server.get('/ip', async (request) => ({ ip: request.ip }));
    const answer = await server.inject({ method: 'GET', url: '/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    return answer.json<{ ip: string }>().ip;
  }

  it('reads the client address from X-Forwarded-For only when the connection comes from a trusted proxy', async () => {
    expect(await clientAddress()).toBe('127.0.0.1');
    await fastify?.close();
    expect(await clientAddress(['127.0.0.1'])).toBe('203.0.113.9');
    await fastify?.close();
    expect(await clientAddress(['10.0.0.0/8'])).toBe('127.0.0.1');
  });
});
