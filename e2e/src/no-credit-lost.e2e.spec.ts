import { ClientProxyFactory } from '@nestjs/microservices';
import { Patterns, type DebitCommand, type DebitResult } from '@smsq/contracts';
import { rmqClientOptions, ServiceClient } from '@smsq/platform';
import { eventually } from '@smsq/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, type HttpAnswer, type ServiceName } from './support/stack.js';

const SMS = { recipient: '+381641234567', message: 'must not be lost' };

/**
 * The debit and the task form one outcome (docs/decisions.md): whatever dies, a client is charged
 * exactly for the tasks that exist, and an error answer means nothing was charged.
 */
describe('no credit is lost or taken twice', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      profile: 'A',
      env: { SMSQ_SETTLE_AFTER_S: '2', SMSQ_RPC_TIMEOUT_MS: '1500', SMSQ_CREATE_TIMEOUT_MS: '3000' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /**
   * A create right after a restart, asked again while it answers 503 unavailable: the restarted
   * service's first requests can outlast the short RPC timeout on a busy machine, and a 503 charges
   * nothing, so the balance it answers still counts every charge.
   */
  async function createOnceAvailable(apiKey: string): Promise<HttpAnswer> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await stack.createTask(apiKey, SMS);
      if (answer.status !== 503 || answer.body.error !== 'unavailable' || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('dispatch down: 503 unavailable, nothing charged, and nothing created when it comes back', async () => {
    const client = await stack.newClient();
    await stack.kill('dispatch');
    const answer = await stack.createTask(client.apiKey, SMS);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('unavailable');
    expect(await stack.credits(client.clientId)).toBe(30);
    await stack.restart('dispatch');
    // Had the refused request been acted on late, this one would answer 28.
    expect((await createOnceAvailable(client.apiKey)).body.credits_remaining).toBe(29);
  });

  it('billing down: 503 unavailable, and the balance is whole when it comes back', async () => {
    const client = await stack.newClient();
    await stack.kill('billing');
    const answer = await stack.createTask(client.apiKey, SMS);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('unavailable');
    await stack.restart('billing');
    expect((await createOnceAvailable(client.apiKey)).body.credits_remaining).toBe(29);
    expect(await stack.credits(client.clientId)).toBe(29);
  });

  it('a debit whose task was never stored (a crash between the steps) is refunded by settlement', async () => {
    const client = await stack.newClient();
    const billing = new ServiceClient('billing', ClientProxyFactory.create(rmqClientOptions({ amqpUrl: stack.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672', namespace: stack.env['SMSQ_NAMESPACE']! }, 'billing')), 5_000);
    try {
      const orphan: DebitCommand = { taskKey: randomUUID(), clientId: client.clientId, deadline: new Date(Date.now() + 10_000).toISOString() };
      const debited = await billing.send<DebitResult>(Patterns.billing.debit, orphan);
      expect(debited.creditsRemaining).toBe(29);
      // A repeat of the same step never debits twice.
      expect((await billing.send<DebitResult>(Patterns.billing.debit, orphan)).creditsRemaining).toBe(29);
      const kept = await stack.createTask(client.apiKey, SMS);
      expect(kept.body.credits_remaining).toBe(28);
      await eventually(async () => expect(await stack.credits(client.clientId)).toBe(29), { timeoutMs: 20_000, intervalMs: 500 });
    } finally {
      await billing.close();
    }
  });

  it.each<ServiceName>(['dispatch', 'billing'])('%s killed mid-request: every 201 is a stored task charged once, nothing else is charged', async (victim) => {
    const client = await stack.newClient();
    const inFlight = Promise.all(Array.from({ length: 20 }, () => stack.createTask(client.apiKey, SMS)));
    await new Promise((resolve) => setTimeout(resolve, 40));
    await stack.kill(victim);
    const answers = await inFlight;
    await stack.restart(victim);

    const created = answers.filter((answer) => answer.status === 201);
    expect(answers.every((answer) => answer.status === 201 || (answer.status === 503 && answer.body.error === 'unavailable'))).toBe(true);
    // Looked up again while the restarted service's first answers outlast the short RPC timeout (503); a 404 fails at once.
    for (const answer of created) {
      await eventually(async () => expect((await stack.http('GET', `/smsapi/tasks/${answer.body.id}`, { headers: { 'x-api-key': client.apiKey } })).status).not.toBe(503), { timeoutMs: 30_000, intervalMs: 200 });
      expect((await stack.http('GET', `/smsapi/tasks/${answer.body.id}`, { headers: { 'x-api-key': client.apiKey } })).status).toBe(200);
    }
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(30 - created.length), { timeoutMs: 30_000, intervalMs: 500 });
  });
});
