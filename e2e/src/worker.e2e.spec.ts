import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { registerPhone } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'through the real worker' };

describe.each(['A', 'B'] as const)('the reference worker delivering through gateway-sim, Profile %s', (profile) => {
  let stack: Stack;
  let simUrl: string;

  beforeAll(async () => {
    stack = await Stack.start({ profile, oneProcess: true });
    simUrl = await stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0' });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function workerFor(client: { apiKey: string }): Promise<string> {
    if (profile === 'A') {
      const registered = await registerPhone(stack, client.apiKey, { name: 'sim phone', device_id: 'sim', url: simUrl });
      return registered.body.worker_token;
    }
    await stack.adminOk('gateway', 'create', '--name', 'sim', '--url', simUrl);
    return (await stack.adminOk('worker-token', 'create')).worker_token;
  }

  it('takes a queued SMS to sent, and the gateway received it', async () => {
    const client = await stack.newClient({ phone: false });
    stack.startWorker(await workerFor(client));
    const created = await stack.createTask(client.apiKey, SMS);
    expect(created.status).toBe(201);
    await eventually(async () => {
      const task = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(task.body.status).toBe('sent');
    }, { timeoutMs: 20_000, intervalMs: 200 });
    const received = (await (await fetch(`${simUrl}/messages`)).json()) as Array<{ id?: number; message: string }>;
    expect(received.some((message) => message.message === SMS.message)).toBe(true);
    await stack.kill('worker', 'SIGTERM');
  });

  it('reports a failed send as failed and refunds it', async () => {
    await stack.kill('gateway-sim');
    await stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '1' });
    const client = await stack.newClient({ phone: false });
    stack.startWorker(await workerFor(client));
    const before = await stack.credits(client.clientId);
    const created = await stack.createTask(client.apiKey, SMS);
    await eventually(async () => {
      const task = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(task.body).toMatchObject({ status: 'failed' });
    }, { timeoutMs: 20_000, intervalMs: 200 });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before));
    await stack.kill('worker', 'SIGTERM');
  });
});
