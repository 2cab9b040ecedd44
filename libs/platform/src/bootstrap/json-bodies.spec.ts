import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseBodyLimit, readBodiesAsJson, UNPARSABLE_BODY } from './json-bodies.js';

const LIMIT = 1024;

describe('readBodiesAsJson', () => {
  let fastify: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    fastify = Fastify({ bodyLimit: LIMIT });
    readBodiesAsJson(fastify, { bodyLimit: LIMIT, notJson: 'mark' });
    raiseBodyLimit(fastify, ['/large'], 4 * LIMIT);
    const echo = async (request: { body: unknown }) => ({ body: request.body === UNPARSABLE_BODY ? 'unparsable' : request.body });
    fastify.post('/small', echo);
    fastify.post('/large', echo);
    baseUrl = await fastify.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await fastify.close();
  });

  const post = (path: string, body: string) => fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });

  it('reads any body as JSON, marks one that is not and takes an empty one as none', async () => {
    expect(await (await post('/small', '{"a":1}')).json()).toEqual({ body: { a: 1 } });
    expect(await (await post('/small', 'not json')).json()).toEqual({ body: 'unparsable' });
    expect(await (await post('/small', ' ')).json()).toEqual({});
  });

  it('gives a route its own limit', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(2 * LIMIT) });
    expect((await post('/small', body)).status).toBe(413);
    expect((await post('/large', body)).status).toBe(200);
  });

  it('lets a client that sends far too much read its 413, on a connection kept open', async () => {
    // Closing at once, as Fastify does, fails a client still writing with EPIPE before it reads the answer.
    const body = 'x'.repeat(8 * 1024 * 1024);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const answer = await post('/small', body);
      expect(answer.status).toBe(413);
      expect(answer.headers.get('connection')).not.toBe('close');
      await answer.arrayBuffer();
    }
  });
});
