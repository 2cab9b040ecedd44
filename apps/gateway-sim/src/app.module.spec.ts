import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, startService } from '@smsq/platform';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from './app.module.js';
import { readGatewaySimConfig } from './config/gateway-sim-config.js';
import { StandInSmsq } from './testing/stand-in-smsq.js';

const TOKEN = 'smsq_wkr_GatewaySimTestToken0123456789abcdef';

describe(AppModule.name, () => {
  let smsq: StandInSmsq;
  let app: NestFastifyApplication | undefined;

  async function startSim(env: Record<string, string>, random?: () => number): Promise<string> {
    const config = loadConfig(readGatewaySimConfig, { SMSQ_BASE_URL: smsq.url, SMSQ_LOG_FORMAT: 'text', ...env });
    app = await startService({ name: 'gateway-sim', module: AppModule.register(config, { random }), config, port: 0 });
    return app.getUrl();
  }

  function post(base: string, path: string, body: unknown): Promise<Response> {
    return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  beforeAll(async () => {
    smsq = await StandInSmsq.start();
  });

  afterEach(async () => {
    await app?.close();
    app = undefined;
    smsq.calls.length = 0;
  });

  afterAll(async () => {
    await smsq.close();
  });

  it('accepts every send at failure rate 0 and lists them newest first', async () => {
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '0' });

    const first = await post(base, '/send', { id: 1, recipient: '+381641234567', message: 'one' });
    const second = await post(base, '/send', { recipient: '+381641234568', message: 'two' });
    const listed = await fetch(`${base}/messages`);

    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as any;
    expect(firstBody).toEqual({ ok: true, message_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(second.status).toBe(200);
    const messages = (await listed.json()) as any;
    expect(messages).toEqual([
      { message_id: expect.any(String), id: null, recipient: '+381641234568', message: 'two', status: 'sent', received_at: expect.any(String) },
      { message_id: firstBody.message_id, id: 1, recipient: '+381641234567', message: 'one', status: 'sent', received_at: expect.any(String) },
    ]);
  });

  it('fails every send at failure rate 1 with a 502, and lists it as failed', async () => {
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '1' });

    const response = await post(base, '/send', { id: 9, recipient: '+381641234567', message: 'lost' });
    const messages = (await (await fetch(`${base}/messages`)).json()) as any;

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ ok: false, error: 'simulated carrier failure' });
    expect(messages).toMatchObject([{ id: 9, message_id: null, status: 'failed' }]);
  });

  it('says "retry": true in a failed send\'s answer with GATEWAY_SIM_FAILURE_RETRY, the gateway\'s word that nothing was sent', async () => {
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '1', GATEWAY_SIM_FAILURE_RETRY: 'true' });

    const response = await fetch(`${base}/send`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 9, recipient: '+381641234567', message: 'hi' }) });

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ ok: false, error: 'simulated no service: nothing sent', retry: true });
  });

  it('fails the sends its random source picks', async () => {
    const rolls = [0.05, 0.5, 0.09, 0.95];
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '0.1' }, () => rolls.shift() ?? 0.5);

    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(base, '/send', { recipient: '+381641234567', message: `m${i}` })).status);

    expect(statuses).toEqual([502, 200, 502, 200]);
  });

  it.each([
    ['no body fields', {}],
    ['a recipient that is not a string', { recipient: 381641234567, message: 'hi' }],
    ['an empty message', { recipient: '+381641234567', message: '' }],
    ['an id that is not an integer', { id: 'x', recipient: '+381641234567', message: 'hi' }],
    ['an unknown field', { recipient: '+381641234567', message: 'hi', extra: true }],
  ])('answers 400 to a send with %s, and remembers nothing', async (_case, body) => {
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '0' });

    const response = await post(base, '/send', body);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', detail: expect.any(String) });
    expect(await (await fetch(`${base}/messages`)).json()).toEqual([]);
  });

  it('forwards a reply to smsq with the worker token and answers what smsq answered', async () => {
    const base = await startSim({ GATEWAY_SIM_WORKER_TOKEN: TOKEN });
    smsq.answer = { status: 201, body: { ok: true, stored: 1, duplicates: 0 } };

    const response = await post(base, '/replies', { from: '+381641234567', message: 'Thanks!' });

    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true, stored: 1, duplicates: 0 });
    const [call] = smsq.calls;
    expect(call?.headers['x-worker-token']).toBe(TOKEN);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({ messages: [{ from: '+381641234567', message: 'Thanks!', received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), external_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }] });
  });

  it('passes an error answer of smsq through unchanged', async () => {
    const base = await startSim({ GATEWAY_SIM_WORKER_TOKEN: TOKEN });
    smsq.answer = { status: 401, body: { error: 'unauthorized', detail: 'missing, invalid or revoked worker token' } };

    const response = await post(base, '/replies', { from: '+381641234567', message: 'Thanks!' });

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'unauthorized', detail: 'missing, invalid or revoked worker token' });
  });

  it('gives every reply its own external_id, so smsq never takes one for a duplicate', async () => {
    const base = await startSim({ GATEWAY_SIM_WORKER_TOKEN: TOKEN });
    smsq.answer = { status: 201, body: { ok: true, stored: 1, duplicates: 0 } };

    await post(base, '/replies', { from: '+381641234567', message: 'same' });
    await post(base, '/replies', { from: '+381641234567', message: 'same' });

    const ids = smsq.calls.map((call) => (call.body as any).messages[0].external_id);
    expect(new Set(ids).size).toBe(2);
  });

  it('refuses a reply with 400 when it has no worker token to post it with', async () => {
    const base = await startSim({});

    const response = await post(base, '/replies', { from: '+381641234567', message: 'Thanks!' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', detail: expect.stringContaining('GATEWAY_SIM_WORKER_TOKEN is not set') });
    expect(smsq.calls).toEqual([]);
  });

  it('answers 502 to a reply when smsq cannot be reached', async () => {
    const nobody = await StandInSmsq.start();
    const closedUrl = nobody.url;
    await nobody.close();
    const base = await startSim({ GATEWAY_SIM_WORKER_TOKEN: TOKEN, SMSQ_BASE_URL: closedUrl });

    const response = await post(base, '/replies', { from: '+381641234567', message: 'Thanks!' });

    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 'smsq_unreachable', detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('answers 400 to a reply without from or message', async () => {
    const base = await startSim({ GATEWAY_SIM_WORKER_TOKEN: TOKEN });

    const response = await post(base, '/replies', { message: 'who?' });

    expect(response.status).toBe(400);
    expect(smsq.calls).toEqual([]);
  });

  it('at reply rate 1, answers every successful send with a reply from its recipient', async () => {
    const base = await startSim({ GATEWAY_SIM_FAILURE_RATE: '0', GATEWAY_SIM_REPLY_RATE: '1', GATEWAY_SIM_WORKER_TOKEN: TOKEN });

    await post(base, '/send', { id: 4, recipient: '+381641234567', message: 'Are you coming?' });
    const [call] = await smsq.waitForCalls(1);

    expect(call?.body).toMatchObject({ messages: [{ from: '+381641234567', message: 'Re: Are you coming?' }] });
  });

  it('is alive, ready and has metrics', async () => {
    const base = await startSim({});

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ready: true, checks: {} });
    expect(await (await fetch(`${base}/metrics`)).text()).toContain('service="gateway-sim"');
  });
});
