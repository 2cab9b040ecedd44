import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type ServiceName } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'lease me' };

describe('leases and refunds under faults, Profile A', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', env: { SMSQ_CLAIM_TIMEOUT_S: '2', SMSQ_MAX_ATTEMPTS: '2' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function pairedClient() {
    const client = await stack.newClient({ phone: false });
    const registered = await registerPhone(stack, client.apiKey, { name: 'phone', device_id: `d-${client.clientId}` });
    const { worker_token: secondToken } = await stack.adminOk('worker-token', 'create', '--phone', String(registered.body.phone_id));
    return { ...client, phoneId: registered.body.phone_id as number, token: registered.body.worker_token as string, secondToken: secondToken as string };
  }

  async function taskOf(apiKey: string, id: number) {
    return (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': apiKey } })).body;
  }

  it('returns an unreported claim to pending with the attempt counted, refuses the old holder, and fails and refunds after the last attempt', async () => {
    const client = await pairedClient();
    const created = await stack.createTask(client.apiKey, SMS);
    const first = workerApi(stack, client.token);
    const second = workerApi(stack, client.secondToken);
    expect((await first.poll()).body).toMatchObject({ id: created.body.id, attempt: 1 });

    const reclaimed = await eventually(async () => {
      const answer = await second.poll();
      expect(answer.body.id).toBe(created.body.id);
      return answer;
    }, { timeoutMs: 15_000, intervalMs: 250 });
    expect(reclaimed.body.attempt).toBe(2);
    expect((await first.report(created.body.id, 'sent')).status).toBe(404);

    await eventually(async () => expect(await taskOf(client.apiKey, created.body.id)).toMatchObject({ status: 'failed', attempts: 2 }), { timeoutMs: 15_000, intervalMs: 250 });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(30), { timeoutMs: 15_000 });
    expect((await second.report(created.body.id, 'sent')).status).toBe(409);
  });

  it.each<ServiceName>(['billing', 'dispatch'])('refunds a failed task exactly once when %s is killed between the report and the refund', async (victim) => {
    const client = await pairedClient();
    const tasks = await Promise.all(Array.from({ length: 6 }, () => stack.createTask(client.apiKey, SMS)));
    const api = workerApi(stack, client.token);
    const claimed: number[] = [];
    for (let index = 0; index < tasks.length; index++) claimed.push((await api.poll()).body.id);
    expect(await stack.credits(client.clientId)).toBe(24);

    if (victim === 'billing') await stack.kill('billing');
    const reports = Promise.all(claimed.map((id) => api.report(id, 'failed', 'carrier said no')));
    if (victim === 'dispatch') {
      // Let some reports commit, then kill dispatch before its outbox can relay all of their refunds.
      await new Promise((resolve) => setTimeout(resolve, 30));
      await stack.kill('dispatch');
    }
    const answers = await reports;
    await stack.restart(victim);

    // Reports that got no answer are retried, as a worker does.
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 200) expect((await api.report(claimed[index]!, 'failed', 'carrier said no')).status).toBe(200);
    }
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(30), { timeoutMs: 30_000, intervalMs: 500 });
    // And it stays there: nothing is refunded twice once the relay has caught up.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await stack.credits(client.clientId)).toBe(30);
  });
});
