import { eventually } from '@smsq/testing';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { registerPhone } from './support/worker-api.js';

/**
 * The four core services in one Node process, as `npm start` runs them (scripts/one-process.mjs):
 * the same answers as apart, and one SIGTERM drains them all, the public API first.
 */
describe('the core services in one process', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers, charges and delivers as the separate services do', async () => {
    const simUrl = await stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0' });
    const client = await stack.newClient({ phone: false });
    const registered = await registerPhone(stack, client.apiKey, { name: 'sim phone', device_id: 'one-process', url: simUrl });
    stack.startWorker(registered.body.worker_token);

    const created = await stack.createTask(client.apiKey, { recipient: '064 123 4567', message: 'one process' });

    expect(created).toMatchObject({ status: 201, body: { ok: true, status: 'pending', phone_id: registered.body.phone_id, charged: true, credits_remaining: 29 } });
    await eventually(async () => expect((await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } })).body).toMatchObject({ status: 'sent', recipient: '+381641234567' }), { timeoutMs: 20_000, intervalMs: 200 });
    expect((await stack.http('POST', '/smsapi/create-task', { headers: { 'x-api-key': 'smsq_key_wrong' }, body: {} })).status).toBe(401);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.env['BILLING_PORT']}/metrics`)).text();
    expect(metrics).toContain('service="billing+dispatch+inbox+gateway"');
    await stack.kill('worker', 'SIGTERM');
  });

  it('drains every service on one SIGTERM, the public API first, and exits 0', async () => {
    const child = stack.processOf('services')!;
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

    child.kill('SIGTERM');

    expect(await exited).toEqual([0, null]);
    const drained = stack.logsOf('services').flatMap((line) => {
      const entry = JSON.parse(line) as { service?: string; context?: string; message?: unknown };
      return entry.message === 'drained' ? [`${entry.service}: ${entry.context}`] : [];
    });
    expect(drained).toEqual(['gateway', 'inbox', 'dispatch', 'billing'].map((service) => `billing+dispatch+inbox+gateway: ${service}`));
  });
});
