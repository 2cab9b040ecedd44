import { randomBytes } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  Patterns,
  type DebitCommand,
  type DebitResult,
  type PhoneRegistered,
  type RefundCommand,
  type RefundResult,
  type TaskClaim,
  type TaskCreated,
  type TaskView,
} from '@smsq/contracts';
import { AckAfterHandlingInterceptor, loadConfig, queueName, rmqClientOptions, rmqServerOptions, ServiceClient, startService } from '@smsq/platform';
import { eventually, type TestDatabase } from '@smsq/testing';
import { connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from './app.module.js';
import { readDispatchConfig, type DispatchConfig } from './config/dispatch-config.js';
import { createDispatchTestDatabase } from './testing/dispatch-under-test.js';
import { taskCreateCommand } from './testing/task-commands.js';

/** What billing was asked over the broker. */
const billingRequests = { refunds: [] as RefundCommand[] };

/** Billing as dispatch reaches it: a consumer of the billing queue that answers every debit and refund. */
@Controller()
class StandInBillingController {
  @MessagePattern(Patterns.billing.debit)
  debit(@Payload() command: DebitCommand): DebitResult {
    return { taskKey: command.taskKey, creditsRemaining: 9, bucket: 'daily' };
  }

  @MessagePattern(Patterns.billing.refund)
  refund(@Payload() command: RefundCommand): RefundResult {
    billingRequests.refunds.push(command);
    return { taskKey: command.taskKey, refunded: true, creditsRemaining: 10 };
  }
}

@Module({ controllers: [StandInBillingController] })
class StandInBillingModule {}

const CLIENT = 12;

/** The dispatch service as the gateway reaches it: over its queue, payloads checked strictly, its jobs running. */
describe(AppModule.name, () => {
  let database: TestDatabase;
  let config: DispatchConfig;
  let app: NestFastifyApplication;
  let billing: INestMicroservice;
  let dispatch: ServiceClient;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    config = loadConfig(readDispatchConfig, {
      DATABASE_URL: database.url,
      SMSQ_PROFILE: 'A',
      SMSQ_NAMESPACE: `dispatchapp_${randomBytes(4).toString('hex')}`,
      SMSQ_CLAIM_TIMEOUT_S: '2',
      SMSQ_MAX_ATTEMPTS: '1',
    });
    billing = await NestFactory.createMicroservice(StandInBillingModule, { ...rmqServerOptions(config, 'billing'), logger: false });
    billing.useGlobalInterceptors(new AckAfterHandlingInterceptor());
    await billing.listen();
    app = await startService({ name: 'dispatch', module: AppModule.register(config), config, port: 0, consumes: 'dispatch' });
    dispatch = new ServiceClient('dispatch', ClientProxyFactory.create(rmqClientOptions(config, 'dispatch')), 5_000);
    const registered = await dispatch.send<PhoneRegistered>(Patterns.dispatch.phoneRegister, { clientId: CLIENT, name: 'pixel', phoneLimit: 2 });
    phoneId = registered.phone.id;
  });

  afterAll(async () => {
    await dispatch?.close();
    await app?.close();
    await billing?.close();
    if (config) {
      const connection = await connect(config.amqpUrl);
      const channel = await connection.createChannel();
      for (const service of ['dispatch', 'billing'] as const) await channel.deleteQueue(queueName(config.namespace, service));
      await connection.close();
    }
    await database?.drop();
  });

  async function createTask(): Promise<TaskCreated & { taskKey: string }> {
    const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 1_000).toISOString() });
    return { ...(await dispatch.send<TaskCreated>(Patterns.dispatch.taskCreate, command)), taskKey: command.taskKey };
  }

  const taskOf = (id: number) => dispatch.send<TaskView>(Patterns.dispatch.taskGet, { clientId: CLIENT, id });

  it('is ready once its database, broker and Redis are', async () => {
    const response = await fetch(new URL('/readyz', await app.getUrl()));

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok', redis: 'ok' } });
  });

  it('claims, reports and refunds a failed task over the broker, through its running outbox relay', async () => {
    const { task, taskKey } = await createTask();

    const claim = await dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 3, phoneId });
    expect(claim).toMatchObject({ claimed: true, task: { id: task.id, attempt: 1, phoneId, clientId: CLIENT } });
    await expect(dispatch.send(Patterns.dispatch.taskReport, { tokenId: 3, id: task.id, status: 'failed', error: 'no signal' })).resolves.toEqual({
      id: task.id,
      status: 'failed',
    });

    await eventually(() => expect(billingRequests.refunds.filter((refund) => refund.taskKey === taskKey)).toEqual([{ taskKey, reason: 'task_failed' }]));
    await expect(taskOf(task.id)).resolves.toMatchObject({ status: 'failed', error: 'no signal', attempts: 1 });
  });

  it('fails and refunds an unreported claim through its running lease expiry', async () => {
    const { task, taskKey } = await createTask();
    await dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 3, phoneId });

    await eventually(() => expect(billingRequests.refunds.filter((refund) => refund.taskKey === taskKey)).toHaveLength(1), { timeoutMs: 15_000 });
    await expect(taskOf(task.id)).resolves.toMatchObject({ status: 'failed', error: 'no report within the claim timeout after 1 attempts' });
    await expect(dispatch.send(Patterns.dispatch.taskReport, { tokenId: 4, id: task.id, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers the owner of a reply and puts back a released claim', async () => {
    await expect(dispatch.send(Patterns.dispatch.replyOwner, { phoneId, from: '+381601234567' })).resolves.toEqual({ clientId: CLIENT, phoneId });
    await expect(dispatch.send(Patterns.dispatch.taskRelease, { tokenId: 3, id: 999_999 })).resolves.toEqual({ ok: true });
  });

  it.each([
    ['a claim with a token id that is not a number', Patterns.dispatch.taskClaim, { tokenId: '3', phoneId: 1 }],
    ['a claim with an unknown field', Patterns.dispatch.taskClaim, { tokenId: 3, everything: true }],
    ['a report of a status other than sent or failed', Patterns.dispatch.taskReport, { tokenId: 3, id: 1, status: 'claimed' }],
    ['a report with an error over 1000 characters', Patterns.dispatch.taskReport, { tokenId: 3, id: 1, status: 'failed', error: 'x'.repeat(1001) }],
    ['a release without an id', Patterns.dispatch.taskRelease, { tokenId: 3 }],
    ['a reply owner query for a number that is not E.164', Patterns.dispatch.replyOwner, { from: '0601234567' }],
  ])('refuses %s as invalid_request', async (_, pattern, payload) => {
    await expect(dispatch.send(pattern, payload)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('answers the contract’s errors for a worker token that cannot claim', async () => {
    await expect(dispatch.send(Patterns.dispatch.taskClaim, { tokenId: 3 })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(dispatch.send(Patterns.dispatch.taskClaim, { tokenId: 3, phoneId: 4242 })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
