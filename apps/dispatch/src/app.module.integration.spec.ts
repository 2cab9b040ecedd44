import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientProxyFactory, MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  countSegments,
  Patterns,
  type BatchAnswer,
  type DebitBatchCommand,
  type DebitCommand,
  type DailyTaskCount,
  type DebitResult,
  type PhoneDetails,
  type PhoneRegistered,
  type RefundCommand,
  type RefundResult,
  type SystemStats,
  type TaskClaim,
  type TaskCreated,
  type TaskPage,
  type TaskReported,
  type TaskView,
} from '@smsq/contracts';
import { AckAfterHandlingInterceptor, deadLetterQueueName, loadConfig, queueName, rmqClientOptions, rmqServerOptions, ServiceClient, startService } from '@smsq/platform';
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

  @MessagePattern(Patterns.billing.debitBatch)
  debitBatch(@Payload() command: DebitBatchCommand): BatchAnswer<DebitResult> {
    return { results: command.debits.map((debit) => ({ ok: true, value: this.debit(debit) })) };
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
      for (const service of ['dispatch', 'billing'] as const) {
        await channel.deleteQueue(queueName(config.namespace, service));
        await channel.deleteQueue(deadLetterQueueName(config.namespace, service));
      }
      await connection.close();
    }
    await database?.drop();
  });

  async function createTask(): Promise<TaskCreated & { taskKey: string }> {
    const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 1_000).toISOString() });
    return { ...(await dispatch.send<TaskCreated>(Patterns.dispatch.taskCreate, command)), taskKey: command.taskKey };
  }

  const taskOf = (id: number) => dispatch.send<TaskView>(Patterns.dispatch.taskGet, { clientId: CLIENT, id });

  it('is ready once its database, Redis and the broker (on its own channel and on its client to billing) are', async () => {
    // Asked until ready: each check has 2 s to answer, which a busy machine's first round trips can take.
    await eventually(async () => {
      const response = await fetch(new URL('/readyz', await app.getUrl()));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ready: true, checks: { database: 'ok', broker: 'ok', 'broker:billing': 'ok', redis: 'ok' } });
    }, { timeoutMs: 15_000, intervalMs: 250 });
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

  it('creates a batch over the broker, each create answered in its place, a malformed batch refused whole', async () => {
    // Due far ahead, so that no claim of the other tests takes them.
    const later = { scheduledAt: '2099-01-01T10:00:00.000Z', scheduledLocal: '2099-01-01 11:00:00' };
    const creates = [CLIENT, CLIENT + 1000, CLIENT].map((clientId) => taskCreateCommand({ clientId, ...later, message: randomUUID() }));

    const answer = await dispatch.send<BatchAnswer<TaskCreated>>(Patterns.dispatch.taskCreateBatch, { creates });

    expect(answer.results.map((result) => (result.ok ? result.value.task.message : result.error.error))).toEqual([
      creates[0]!.message,
      'no_active_phone',
      creates[2]!.message,
    ]);
    const malformed = { creates: [{ ...creates[0], recipient: 'nobody' }] };
    await expect(dispatch.send(Patterns.dispatch.taskCreateBatch, malformed)).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(dispatch.send(Patterns.dispatch.taskCreateBatch, { creates: [] })).rejects.toMatchObject({ code: 'invalid_request' });
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
    ['a single report of released, which only a batch takes', Patterns.dispatch.taskReport, { tokenId: 3, id: 1, status: 'released' }],
    ['a batch report of a status no report takes', Patterns.dispatch.taskReportBatch, { tokenId: 3, reports: [{ id: 1, status: 'claimed' }] }],
    ['a report with an error over 1000 characters', Patterns.dispatch.taskReport, { tokenId: 3, id: 1, status: 'failed', error: 'x'.repeat(1001) }],
    ['a release without an id', Patterns.dispatch.taskRelease, { tokenId: 3 }],
    ['a reply owner query for a number that is not E.164', Patterns.dispatch.replyOwner, { from: '0601234567' }],
  ])('refuses %s as invalid_request', async (_, pattern, payload) => {
    await expect(dispatch.send(pattern, payload)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('lists, resends and counts tasks over the broker, each client only its own', async () => {
    const { task } = await createTask();
    await dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 5, phoneId });
    await dispatch.send(Patterns.dispatch.taskReport, { tokenId: 5, id: task.id, status: 'failed' });

    const failed = await dispatch.send<TaskPage>(Patterns.dispatch.taskList, { clientId: CLIENT, status: 'failed', page: 1, pageSize: 200 });
    expect(failed.items.map((item) => item.id)).toContain(task.id);
    await expect(dispatch.send<TaskPage>(Patterns.dispatch.taskList, { clientId: CLIENT + 1, page: 1, pageSize: 10 })).resolves.toMatchObject({ total: 0 });

    const resend = { clientId: CLIENT, id: task.id, taskKey: randomUUID(), deadline: new Date(Date.now() + 10_000).toISOString() };
    await expect(dispatch.send(Patterns.dispatch.taskResend, { ...resend, clientId: CLIENT + 1 })).rejects.toMatchObject({ code: 'not_found' });
    const resent = await dispatch.send<TaskCreated>(Patterns.dispatch.taskResend, resend);
    expect(resent.task).toMatchObject({ clientId: CLIENT, status: 'pending', recipient: task.recipient, message: task.message });
    await expect(dispatch.send(Patterns.dispatch.taskResend, { ...resend, id: resent.task.id, taskKey: randomUUID() })).rejects.toMatchObject({ code: 'conflict' });

    const days = await dispatch.send<DailyTaskCount[]>(Patterns.dispatch.taskDailyStats, { clientId: CLIENT, days: 30, timeZone: 'Europe/Belgrade' });
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.pending).toBeGreaterThanOrEqual(1);
    const system = await dispatch.send<SystemStats>(Patterns.dispatch.systemStats, { minutes: 60 });
    expect(system.sentPerMinute).toHaveLength(60);
    expect(system.tasksByStatus.failed).toBeGreaterThanOrEqual(1);
  });

  it('lists, renames and disables phones over the broker, each client only its own', async () => {
    const phones = await dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId: CLIENT });
    expect(phones).toEqual([expect.objectContaining({ id: phoneId, clientId: CLIENT, sentToday: 0 })]);
    await expect(dispatch.send(Patterns.dispatch.phoneList, { clientId: CLIENT + 1 })).resolves.toEqual([]);

    await expect(dispatch.send(Patterns.dispatch.phoneRename, { phoneId, clientId: CLIENT + 1, name: 'stolen' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.send(Patterns.dispatch.phoneRename, { phoneId, clientId: CLIENT, name: 'kitchen' })).resolves.toMatchObject({ id: phoneId, name: 'kitchen' });
    await expect(dispatch.send(Patterns.dispatch.phoneSetActive, { phoneId, kind: 'own', active: false, clientId: CLIENT + 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(dispatch.send(Patterns.dispatch.phoneSetActive, { phoneId, kind: 'own', active: true, clientId: CLIENT })).resolves.toEqual({ ok: true });
  });

  it.each([
    ['a task list without a page', Patterns.dispatch.taskList, { clientId: 1, pageSize: 10 }],
    ['a task list page over 200 tasks', Patterns.dispatch.taskList, { page: 1, pageSize: 201 }],
    ['a task list from a time that is not ISO 8601', Patterns.dispatch.taskList, { page: 1, pageSize: 10, from: 'yesterday' }],
    ['a resend without a task key', Patterns.dispatch.taskResend, { clientId: 1, id: 1, deadline: new Date().toISOString() }],
    ['daily stats over more than 366 days', Patterns.dispatch.taskDailyStats, { days: 367, timeZone: 'UTC' }],
    ['daily stats in a zone that does not exist', Patterns.dispatch.taskDailyStats, { days: 3, timeZone: 'Mars/Olympus' }],
    ['system stats over more than a day of minutes', Patterns.dispatch.systemStats, { minutes: 1441 }],
    ['a phone list of an unknown kind', Patterns.dispatch.phoneList, { kind: 'satellite' }],
    ['a rename to an empty name', Patterns.dispatch.phoneRename, { phoneId: 1, name: '' }],
    ['a health report of a battery over 100%', Patterns.dispatch.phoneHealthReport, { phoneId: 1, batteryPercent: 101 }],
    ['a health report of a fractional battery', Patterns.dispatch.phoneHealthReport, { phoneId: 1, batteryPercent: 50.5 }],
    ['a health report charging "yes"', Patterns.dispatch.phoneHealthReport, { phoneId: 1, charging: 'yes' }],
    ['a health report of a connection with a control character', Patterns.dispatch.phoneHealthReport, { phoneId: 1, connection: 'wi\nfi' }],
    ['a health report of a connection over 40 characters', Patterns.dispatch.phoneHealthReport, { phoneId: 1, connection: 'x'.repeat(41) }],
    ['a health report that says nothing', Patterns.dispatch.phoneHealthReport, { phoneId: 1 }],
    ['a delivery report of an unknown status', Patterns.dispatch.taskReport, { tokenId: 1, id: 1, status: 'read' }],
  ])('refuses %s as invalid_request', async (_, pattern, payload) => {
    await expect(dispatch.send(pattern, payload)).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('records a phone’s health and shows it, with its last poll, in the phone list over the broker', async () => {
    await expect(dispatch.send(Patterns.dispatch.phoneHealthReport, { phoneId, batteryPercent: 42, charging: true, connection: 'wifi' })).resolves.toEqual({ ok: true });
    await dispatch.send(Patterns.dispatch.taskClaim, { tokenId: 77, phoneId });

    const [phone] = await dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId: CLIENT });
    expect(phone).toMatchObject({ id: phoneId, health: { batteryPercent: 42, charging: true, connection: 'wifi', reportedAt: expect.any(String) }, lastSeenAt: expect.any(String) });
    await expect(dispatch.send(Patterns.dispatch.phoneHealthReport, { phoneId: 4242, charging: true })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('records a delivery report over the broker and shows it in the task with its segments', async () => {
    await createTask();
    // The phone's earliest due task, which may be one an earlier case left pending.
    const claim = await dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 78, phoneId });
    if (!claim.claimed) throw new Error('nothing to claim');
    const { id } = claim.task;

    await expect(dispatch.send(Patterns.dispatch.taskReport, { tokenId: 78, id, status: 'delivered' })).resolves.toEqual({ id, status: 'sent' });

    const view = await taskOf(id);
    expect(view).toMatchObject({ status: 'sent', sentAt: expect.any(String), deliveredAt: expect.any(String), segments: countSegments(view.message) });
  });

  it('gives back a claim through a batch report over the broker, and refuses the same release again', async () => {
    await createTask();
    // The phone's earliest due task, which may be one an earlier case left pending.
    const claim = await dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 6, phoneId });
    if (!claim.claimed) throw new Error('nothing to claim');
    const released = { id: claim.task.id, status: 'released' };

    const answer = await dispatch.send<BatchAnswer<TaskReported>>(Patterns.dispatch.taskReportBatch, { tokenId: 6, phoneId, reports: [released, released] });

    expect(answer.results).toEqual([
      { ok: true, value: { id: claim.task.id, status: 'pending' } },
      { ok: false, error: { error: 'not_found', detail: 'task not found' } },
    ]);
    await expect(taskOf(claim.task.id)).resolves.toMatchObject({ status: 'pending', attempts: 0 });
    await expect(dispatch.send<TaskClaim>(Patterns.dispatch.taskClaim, { tokenId: 6, phoneId })).resolves.toMatchObject({ claimed: true, task: { id: claim.task.id, attempt: 1 } });
    await dispatch.send(Patterns.dispatch.taskReport, { tokenId: 6, id: claim.task.id, status: 'sent' });
  });

  it('answers the contract’s errors for a worker token that cannot claim', async () => {
    await expect(dispatch.send(Patterns.dispatch.taskClaim, { tokenId: 3 })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(dispatch.send(Patterns.dispatch.taskClaim, { tokenId: 3, phoneId: 4242 })).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
