import { randomBytes, randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ClientProxyFactory } from '@nestjs/microservices';
import { Patterns, type AccountView, type DebitResult, type RefundResult } from '@smsq/contracts';
import { deadLetterQueueName, queueName, rmqClientOptions, ServiceClient, startService } from '@smsq/platform';
import { createTestDatabase, eventually, type TestDatabase } from '@smsq/testing';
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from './app.module.js';
import type { BillingConfig } from './config/billing-config.js';
import { BILLING_MIGRATIONS_DIR, deadlineAhead, testBillingConfig } from './testing/billing-harness.js';

/** The billing service as dispatch and the gateway reach it: over its queue, payloads checked strictly. */
describe(AppModule.name, () => {
  let testDatabase: TestDatabase;
  let config: BillingConfig;
  let app: NestFastifyApplication;
  let billing: ServiceClient;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('billing_app', [{ schema: 'billing', migrationsDir: BILLING_MIGRATIONS_DIR }]);
    config = testBillingConfig({ databaseUrl: testDatabase.url, namespace: `billingtest_${randomBytes(4).toString('hex')}`, settleAfterS: 3_600 });
    app = await startService({ name: 'billing', module: AppModule.register(config), config, port: 0, consumes: 'billing' });
    billing = new ServiceClient('billing', ClientProxyFactory.create(rmqClientOptions(config, 'billing')), 5_000);
  });

  afterAll(async () => {
    await billing?.close();
    await app?.close();
    const connection = await connect(config.amqpUrl);
    const channel = await connection.createChannel();
    await channel.deleteQueue(queueName(config.namespace, 'billing'));
    await channel.deleteQueue(deadLetterQueueName(config.namespace, 'billing'));
    await connection.close();
    await testDatabase?.drop();
  });

  it('is ready once its database and the broker (on its own channel and on its client to dispatch) are', async () => {
    // Asked until ready: each check has 2 s to answer, which a busy machine's first round trips can take.
    await eventually(async () => {
      const response = await fetch(new URL('/readyz', await app.getUrl()));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok', 'broker:dispatch': 'ok' } });
    }, { timeoutMs: 15_000, intervalMs: 250 });
  });

  it('debits, shows and refunds over the broker', async () => {
    const taskKey = randomUUID();

    const debited = await billing.send<DebitResult>(Patterns.billing.debit, { taskKey, clientId: 501, deadline: deadlineAhead() });
    const shown = await billing.send<AccountView>(Patterns.billing.accountShow, { clientId: 501 });
    const refunded = await billing.send<RefundResult>(Patterns.billing.refund, { taskKey, reason: 'task_failed' });

    expect(debited).toEqual({ taskKey, creditsRemaining: 29, bucket: 'daily' });
    expect(shown).toMatchObject({ clientId: 501, plan: 'free', creditsRemaining: 29 });
    expect(refunded).toEqual({ taskKey, refunded: true, creditsRemaining: 30 });
  });

  it('answers the contract error when the credits are used up', async () => {
    await billing.send(Patterns.billing.planSet, { clientId: 502, plan: 'enterprise', daily: 1 });
    await billing.send(Patterns.billing.debit, { taskKey: randomUUID(), clientId: 502, deadline: deadlineAhead() });

    const refused = billing.send(Patterns.billing.debit, { taskKey: randomUUID(), clientId: 502, deadline: deadlineAhead() });

    await expect(refused).rejects.toMatchObject({ code: 'daily_limit_reached' });
  });

  it.each([
    ['an unknown field', { taskKey: randomUUID(), clientId: 503, deadline: deadlineAhead(), amount: 5 }],
    ['a task key that is not a UUID', { taskKey: 'task-1', clientId: 503, deadline: deadlineAhead() }],
    ['a client id that is not a positive integer', { taskKey: randomUUID(), clientId: '503', deadline: deadlineAhead() }],
    ['no deadline', { taskKey: randomUUID(), clientId: 503 }],
  ])('refuses a debit with %s as invalid_request and charges nothing', async (_, payload) => {
    await expect(billing.send(Patterns.billing.debit, payload)).rejects.toMatchObject({ code: 'invalid_request' });

    await expect(billing.send<AccountView>(Patterns.billing.accountShow, { clientId: 503 })).resolves.toMatchObject({ creditsRemaining: 30 });
  });

  it('refuses custom plan numbers outside enterprise', async () => {
    await expect(billing.send(Patterns.billing.planSet, { clientId: 504, plan: 'pro', phones: 12 })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
