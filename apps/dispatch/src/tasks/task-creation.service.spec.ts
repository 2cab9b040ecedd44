import type { Profile } from '@smsq/contracts';
import { loadConfig } from '@smsq/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { readDispatchConfig } from '../config/dispatch-config.js';
import { RoutingService } from '../routing/routing.service.js';
import { domainErrorOf } from '../testing/domain-error-of.js';
import { FakeBillingClient } from '../testing/fake-billing.client.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import { InMemoryOptOuts } from '../testing/in-memory-opt-outs.js';
import { InMemoryRoutingRepository } from '../testing/in-memory-routing.repository.js';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { InMemoryTasksRepository } from '../testing/in-memory-tasks.repository.js';
import { RecordingDueSignals } from '../testing/recording-due-signals.js';
import { standIn } from '../testing/stand-in.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { TaskCreationService } from './task-creation.service.js';
import { TaskSettlementService } from './task-settlement.service.js';

const CLIENT = 3;

describe(TaskCreationService.name, () => {
  let store: InMemoryStore;
  let tasks: InMemoryTasksRepository;
  let billing: FakeBillingClient;
  let signals: RecordingDueSignals;
  let optOuts: InMemoryOptOuts;
  let sut: TaskCreationService;

  function build(profile: Profile): void {
    const config = loadConfig(readDispatchConfig, { SMSQ_PROFILE: profile });
    const routing = new RoutingService(config, standIn(new InMemoryRoutingRepository(store)));
    const settlement = new TaskSettlementService(standIn(tasks), standIn(billing));
    sut = new TaskCreationService(standIn(tasks), routing, standIn(billing), settlement, standIn(signals), config, optOuts.asRepository(), { touchOutgoing: async () => undefined } as unknown as ConversationsRepository);
  }

  beforeEach(() => {
    store = new InMemoryStore();
    tasks = new InMemoryTasksRepository(store);
    billing = new FakeBillingClient(10);
    signals = new RecordingDueSignals();
    optOuts = new InMemoryOptOuts();
    build('A');
  });

  it('stores a pending task on the chosen phone and answers the balance after the debit', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });

    const created = await sut.create(command);

    expect(created.creditsRemaining).toBe(9);
    expect(created.task).toMatchObject({
      clientId: CLIENT,
      phoneId: phone.id,
      status: 'pending',
      attempts: 0,
      recipient: command.recipient,
      message: command.message,
      scheduledAt: command.scheduledLocal,
    });
    expect(store.tasks).toHaveLength(1);
    expect(store.tasks[0]?.scheduledAt.toISOString()).toBe(command.scheduledAt);
    expect(billing.debitCalls).toEqual([{ taskKey: command.taskKey, clientId: CLIENT, deadline: command.deadline }]);
  });

  it('announces the phone of a task due now or within a long poll, so waiting workers wake', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: CLIENT });
    const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

    await sut.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: at(-60_000) }));
    await sut.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: at(10_000) }));
    await sut.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: at(3_600_000) }));
    // Announced once the answer is on its way, not before.
    await new Promise((resolve) => setImmediate(resolve));

    expect(signals.announced).toEqual([phone.id, phone.id]);
  });

  it('records the assignment on the phone, for least-recently-used order', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: CLIENT });

    await sut.create(taskCreateCommand({ clientId: CLIENT }));

    expect(store.phone(phone.id).lastAssignedAt).not.toBeNull();
  });

  it('does nothing at all once the deadline has passed', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT, deadline: new Date(Date.now() - 1).toISOString() });

    expect((await domainErrorOf(sut.create(command))).code).toBe('unavailable');
    expect(billing.debitCalls).toEqual([]);
    expect(store.tasks).toEqual([]);
    expect(store.voidedKeys.size).toBe(0);
  });

  it('answers a retry with the same key with the same task, without a second task or charge', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });

    const first = await sut.create(command);
    const again = await sut.create(command);

    expect(again.task).toEqual(first.task);
    expect(again.creditsRemaining).toBe(9);
    expect(store.tasks).toHaveLength(1);
    expect(billing.balance(CLIENT)).toBe(9);
  });

  it('refuses a key used by another client instead of showing its task', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });
    await sut.create(command);

    expect((await domainErrorOf(sut.create({ ...command, clientId: CLIENT + 1 }))).code).toBe('conflict');
  });

  it('checks the phone before the credits: no_active_phone wins over an empty balance, and nothing is debited', async () => {
    billing.setBalance(CLIENT, 0);

    expect((await domainErrorOf(sut.create(taskCreateCommand({ clientId: CLIENT })))).code).toBe('no_active_phone');
    expect(billing.debitCalls).toEqual([]);
  });

  it('refuses a recipient on the client’s opt-out list before routing or debit, and only for that client', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    store.addPhone({ kind: 'own', clientId: CLIENT + 1 });
    optOuts.add(CLIENT, '+381641112223');

    const [refused, other, ofAnotherClient] = await sut.createMany([
      taskCreateCommand({ clientId: CLIENT, recipient: '+381641112223' }),
      taskCreateCommand({ clientId: CLIENT, recipient: '+381641112224' }),
      taskCreateCommand({ clientId: CLIENT + 1, recipient: '+381641112223' }),
    ]);

    expect(refused).toMatchObject({ ok: false, error: { error: 'recipient_opted_out' } });
    expect(other).toMatchObject({ ok: true });
    expect(ofAnotherClient).toMatchObject({ ok: true });
    expect(billing.debitCalls.map((debit) => debit.clientId).sort()).toEqual([CLIENT, CLIENT + 1]);
    expect(billing.debitedKeys()).toHaveLength(2);
  });

  it('answers no_active_gateway in Profile B before any debit', async () => {
    build('B');

    expect((await domainErrorOf(sut.create(taskCreateCommand({ clientId: CLIENT })))).code).toBe('no_active_gateway');
    expect(billing.debitCalls).toEqual([]);
  });

  it('passes a 402 from billing on as it is and leaves no task', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    billing.setBalance(CLIENT, 0);
    const command = taskCreateCommand({ clientId: CLIENT });

    const error = await domainErrorOf(sut.create(command));

    expect(error.code).toBe('insufficient_credits');
    expect(store.tasks).toEqual([]);
    expect(billing.refundCalls).toEqual([]);
  });

  it('voids the key and leaves no task when billing does not answer', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    billing.mode = 'unavailable';
    const command = taskCreateCommand({ clientId: CLIENT });

    expect((await domainErrorOf(sut.create(command))).code).toBe('unavailable');
    expect(store.tasks).toEqual([]);
    expect(store.voidedKeys.has(command.taskKey)).toBe(true);
  });

  it('never creates the task later for a key voided after a lost billing answer, even once billing is back', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    billing.mode = 'lost-answer';
    const command = taskCreateCommand({ clientId: CLIENT });
    await domainErrorOf(sut.create(command));

    billing.mode = 'answering';
    expect((await domainErrorOf(sut.create(command))).code).toBe('unavailable');
    expect(store.tasks).toEqual([]);
    expect(billing.debitCalls).toHaveLength(1);
  });

  it('voids the key, asks billing to refund and answers unavailable when storing fails after the debit', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: CLIENT });
    tasks.failNextInsert = new Error('database went away');
    const command = taskCreateCommand({ clientId: CLIENT });

    const error = await domainErrorOf(sut.create(command));

    expect(error.code).toBe('unavailable');
    expect(error.detail).not.toContain('database went away');
    expect(store.tasks).toEqual([]);
    expect(store.voidedKeys.has(command.taskKey)).toBe(true);
    expect(billing.refundCalls).toEqual([{ taskKey: command.taskKey, reason: 'task_not_created' }]);
    expect(billing.balance(CLIENT)).toBe(10);
    expect(store.phone(phone.id).lastAssignedAt).toBeNull();
  });

  it('passes a routing error found while storing on as it is, voided and refunded', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });
    // The phone is disabled while the debit is under way.
    billing.duringDebit = () => {
      store.phone(phone.id).active = false;
    };

    expect((await domainErrorOf(sut.create(command))).code).toBe('no_active_phone');
    expect(store.tasks).toEqual([]);
    expect(store.voidedKeys.has(command.taskKey)).toBe(true);
    expect(billing.refundCalls).toEqual([{ taskKey: command.taskKey, reason: 'task_not_created' }]);
  });

  it('refuses a key that was voided while billing was debiting, and refunds it', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });
    billing.duringDebit = () => {
      store.voidedKeys.add(command.taskKey);
    };

    expect((await domainErrorOf(sut.create(command))).code).toBe('unavailable');
    expect(store.tasks).toEqual([]);
    expect(billing.refundCalls).toEqual([{ taskKey: command.taskKey, reason: 'task_not_created' }]);
  });

  it('answers the task when it was stored though the commit’s answer was lost, without voiding or refunding', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    tasks.loseNextCommitAnswer = true;
    const command = taskCreateCommand({ clientId: CLIENT });

    const created = await sut.create(command);

    expect(created.task.id).toBe(store.tasks[0]?.id);
    expect(store.voidedKeys.size).toBe(0);
    expect(billing.refundCalls).toEqual([]);
  });

  it('refuses a key that was voided before the create arrived, without a debit', async () => {
    store.addPhone({ kind: 'own', clientId: CLIENT });
    const command = taskCreateCommand({ clientId: CLIENT });
    store.voidedKeys.add(command.taskKey);

    expect((await domainErrorOf(sut.create(command))).code).toBe('unavailable');
    expect(billing.debitCalls).toEqual([]);
  });
});
