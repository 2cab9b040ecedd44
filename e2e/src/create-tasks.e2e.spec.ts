import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from './support/shared-stack.js';
import type { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'one of many' };

describe('create-tasks: many tasks in one request', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const clientWithPhone = (bonusCredits = 0) => clientWithPairedPhone(stack, { bonusCredits });

  const createTasks = (apiKey: string, tasks: unknown, headers: Record<string, string> = {}) =>
    stack.http('POST', '/smsapi/create-tasks', { headers: { 'x-api-key': apiKey, ...headers }, body: { tasks } });

  it('answers each item in place, charges exactly the items it queued, and the phone gets those and no others', async () => {
    const client = await clientWithPhone();
    const before = await stack.credits(client.clientId);
    const items = [
      SMS,
      { recipient: 'call me', message: 'x' },
      { ...SMS, message: 'second', scheduled_at: '2020-01-01 10:00' },
      { recipient: '+381641234567', message: '' },
      { ...SMS, message: 'third', scheduled_at: 'tomorrow' },
      'not an object',
      { ...SMS, message: 'fourth' },
    ];

    const answer = await createTasks(client.apiKey, items);

    expect(answer.status).toBe(200);
    const results = answer.body.results as Array<Record<string, unknown>>;
    expect(results.map((result) => (result['ok'] ? 'queued' : result['error']))).toEqual([
      'queued',
      'invalid_recipient',
      'queued',
      'invalid_message',
      'invalid_scheduled_at',
      'invalid_request',
      'queued',
    ]);
    for (const refused of results.filter((result) => !result['ok'])) expect(refused).toEqual({ ok: false, error: expect.any(String), detail: expect.any(String) });
    const queued = results.filter((result) => result['ok']);
    for (const result of queued) {
      expect(result).toEqual({ ok: true, id: expect.any(Number), status: 'pending', phone_id: client.phoneId, client_id: client.clientId, charged: true, scheduled_at: expect.any(String), credits_remaining: expect.any(Number) });
    }
    expect(await stack.credits(client.clientId)).toBe(before - 3);
    expect(Math.min(...queued.map((result) => result['credits_remaining'] as number))).toBe(before - 3);

    const handed: number[] = [];
    for (let claim = (await client.worker.poll()).body; claim.id !== undefined; claim = (await client.worker.poll()).body) handed.push(claim.id);
    expect(handed.sort((a, b) => a - b)).toEqual(queued.map((result) => result['id'] as number).sort((a, b) => a - b));
    const third = await stack.http('GET', `/smsapi/tasks/${queued[1]!['id']}`, { headers: { 'x-api-key': client.apiKey } });
    expect(third.body).toMatchObject({ message: 'second', status: 'claimed' });
  });

  it('queues a thousand items, refuses the ones credits no longer cover, and a repeat under the same Idempotency-Key charges nothing again', async () => {
    const client = await clientWithPhone(960);
    const before = await stack.credits(client.clientId);
    expect(before).toBe(990);
    const items = Array.from({ length: 1000 }, (_, index) => ({ ...SMS, message: `message ${index} ${'x'.repeat(100)}` }));
    const headers = { 'idempotency-key': `bulk-${client.clientId}` };

    const answer = await createTasks(client.apiKey, items, headers);

    expect(answer.status).toBe(200);
    const results = answer.body.results as Array<Record<string, unknown>>;
    expect(results).toHaveLength(1000);
    const queued = results.filter((result) => result['ok']);
    expect(queued).toHaveLength(990);
    expect(new Set(queued.map((result) => result['id'])).size).toBe(990);
    expect(results.filter((result) => !result['ok']).map((result) => result['error'])).toEqual(Array(10).fill('daily_limit_reached'));
    expect(await stack.credits(client.clientId)).toBe(0);

    const repeat = await createTasks(client.apiKey, items, headers);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(answer.body);
    expect(await stack.credits(client.clientId)).toBe(0);
    const otherBody = await createTasks(client.apiKey, items.slice(1), headers);
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error).toBe('conflict');
  }, 120_000);

  it('refuses a malformed list whole, with nothing queued or charged', async () => {
    const client = await clientWithPhone();
    const before = await stack.credits(client.clientId);

    for (const tasks of [undefined, {}, [], Array.from({ length: 1001 }, () => SMS)]) {
      const answer = await createTasks(client.apiKey, tasks);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('tasks') });
    }
    const tooBig = await createTasks(client.apiKey, [{ ...SMS, message: 'x'.repeat(4 * 1024 * 1024) }]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe('payload_too_large');
    expect((await stack.http('POST', '/smsapi/create-tasks', { body: { tasks: [SMS] } })).status).toBe(401);
    expect((await stack.http('GET', '/smsapi/create-tasks', { headers: { 'x-api-key': client.apiKey } })).status).toBe(405);
    // create-task keeps its own limit.
    expect((await stack.createTask(client.apiKey, { ...SMS, message: 'x'.repeat(70 * 1024) })).status).toBe(413);
    expect(await stack.credits(client.clientId)).toBe(before);
  });
});
