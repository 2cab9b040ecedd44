import { randomUUID } from 'node:crypto';
import { InvalidRequestError, Patterns, UnavailableError, type BatchAnswer, type TaskSettlement, type TaskView } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingDatabase } from '../database/billing-database.js';
import {
  billingServices,
  deadlineAhead,
  nextClientId,
  openBillingTestDatabase,
  testBillingConfig,
  type BillingServices,
} from '../testing/billing-harness.js';
import { SettlementSweeper, type DispatchClient } from './settlement-sweeper.js';

/** Stands in for dispatch: answers each task key as the test decided, and records what it was asked. */
class FakeDispatch implements DispatchClient {
  readonly asked: Array<{ pattern: string; payload: object }> = [];
  readonly created = new Set<string>();
  /** Keys dispatch answers with an error of their own. */
  readonly refused = new Set<string>();
  unavailable = false;
  /** When set, answers only once this settles. */
  holdAnswers: Promise<void> | undefined;

  async send<T>(pattern: string, payload: object): Promise<T> {
    this.asked.push({ pattern, payload });
    expect(pattern).toBe(Patterns.dispatch.taskSettleBatch);
    await this.holdAnswers;
    if (this.unavailable) throw new UnavailableError('the dispatch service did not answer; retry later');
    const { taskKeys } = payload as { taskKeys: string[] };
    const answer: BatchAnswer<TaskSettlement> = {
      results: taskKeys.map((taskKey) => {
        if (this.refused.has(taskKey)) return { ok: false, error: new InvalidRequestError('taskKey must be a UUID').toBody() };
        return { ok: true, value: this.created.has(taskKey) ? { outcome: 'created', task: taskViewFor(taskKey) } : { outcome: 'voided' } };
      }),
    };
    return answer as T;
  }
}

function taskViewFor(taskKey: string): TaskView {
  return {
    id: Number.parseInt(taskKey.slice(0, 6), 16),
    clientId: 1,
    phoneId: 1,
    firstPhoneId: 1,
    recipient: '+38160000000',
    message: 'hello',
    status: 'pending',
    scheduledAt: '2026-03-01 10:00:00',
    attempts: 0,
    sentAt: null,
    deliveredAt: null,
    failedAt: null,
    error: null,
    expiresAt: null,
    segments: 1,
    encrypted: false,
    priority: 'normal',
    reroutedBecause: null,
    createdAt: new Date().toISOString(),
  };
}

describe(SettlementSweeper.name, () => {
  let close: () => Promise<void>;
  let database: BillingDatabase;
  let services: BillingServices;

  beforeAll(async () => {
    const opened = await openBillingTestDatabase('billing_settlement');
    ({ database, close } = opened);
    services = billingServices(database, testBillingConfig({ settleAfterS: 5 }));
  });

  afterAll(() => close());

  // Each test sweeps only the charges it made: whatever an earlier test left held is set aside.
  beforeEach(async () => {
    await database.taskCharge.updateMany({ where: { state: 'held' }, data: { state: 'kept' } });
  });

  const debit = (clientId: number) => services.charges.debit({ clientId, taskKey: randomUUID(), deadline: deadlineAhead() });
  const chargeOf = (taskKey: string) => database.taskCharge.findUniqueOrThrow({ where: { taskKey } });
  const inTheFuture = (seconds: number) => new Date(Date.now() + seconds * 1_000);

  it('refunds a held charge whose task dispatch voided and keeps one whose task exists', async () => {
    const clientId = nextClientId();
    const voided = await debit(clientId);
    const created = await debit(clientId);
    const dispatch = new FakeDispatch();
    dispatch.created.add(created.taskKey);
    const sut = services.sweeper(dispatch);

    const outcome = await sut.sweepOnce(inTheFuture(6));

    expect(outcome).toEqual({ kept: 1, refunded: 1, deferred: 0, failed: 0 });
    await expect(chargeOf(voided.taskKey)).resolves.toMatchObject({ state: 'refunded', settledAt: expect.any(Date) });
    await expect(chargeOf(created.taskKey)).resolves.toMatchObject({ state: 'kept', settledAt: expect.any(Date) });
    const refund = await database.ledgerEntry.findFirstOrThrow({ where: { taskKey: voided.taskKey, kind: 'refund' } });
    expect(refund).toMatchObject({ reason: 'task_not_created', bucket: 'daily', amount: 1 });
    await expect(services.accounts.show({ clientId })).resolves.toMatchObject({ creditsRemaining: 29 });
    await expect(services.audit.audit(clientId)).resolves.toMatchObject({ ok: true, totals: { debits: 2, refunds: 1 } });
  });

  it('leaves charges younger than settleAfterS alone and never asks dispatch about them', async () => {
    const { taskKey } = await debit(nextClientId());
    const dispatch = new FakeDispatch();

    await services.sweeper(dispatch).sweepOnce(inTheFuture(1));

    expect(dispatch.asked.map((question) => question.payload)).not.toContainEqual({ taskKey });
    await expect(chargeOf(taskKey)).resolves.toMatchObject({ state: 'held', settledAt: null });
  });

  it('asks about settled charges no more', async () => {
    const { taskKey } = await debit(nextClientId());
    const dispatch = new FakeDispatch();
    const sut = services.sweeper(dispatch);
    await sut.sweepOnce(inTheFuture(6));
    dispatch.asked.length = 0;

    await sut.sweepOnce(inTheFuture(6));

    expect(dispatch.asked).toEqual([]);
    await expect(chargeOf(taskKey)).resolves.toMatchObject({ state: 'refunded' });
  });

  it('changes nothing and stops the round while dispatch is unavailable', async () => {
    const first = await debit(nextClientId());
    const second = await debit(nextClientId());
    const dispatch = new FakeDispatch();
    dispatch.unavailable = true;

    const outcome = await services.sweeper(dispatch).sweepOnce(inTheFuture(6));

    expect(outcome).toMatchObject({ kept: 0, refunded: 0 });
    expect(outcome.deferred).toBeGreaterThanOrEqual(2);
    expect(dispatch.asked).toHaveLength(1);
    await expect(chargeOf(first.taskKey)).resolves.toMatchObject({ state: 'held' });
    await expect(chargeOf(second.taskKey)).resolves.toMatchObject({ state: 'held' });
  });

  it('settles the other charges when one cannot be settled', async () => {
    const clientId = nextClientId();
    const broken = await debit(clientId);
    const fine = await debit(clientId);
    // A charge held while its refund is already in the ledger: refunding it again is refused by the database.
    await services.charges.refund({ taskKey: broken.taskKey, reason: 'task_failed' });
    await database.taskCharge.update({ where: { taskKey: broken.taskKey }, data: { state: 'held' } });

    try {
      const outcome = await services.sweeper(new FakeDispatch()).sweepOnce(inTheFuture(6));

      expect(outcome).toMatchObject({ refunded: 1, failed: 1 });
      await expect(chargeOf(fine.taskKey)).resolves.toMatchObject({ state: 'refunded' });
      await expect(database.ledgerEntry.count({ where: { taskKey: broken.taskKey, kind: 'refund' } })).resolves.toBe(1);
    } finally {
      await database.taskCharge.update({ where: { taskKey: broken.taskKey }, data: { state: 'refunded' } });
    }
  });

  it('skips a task key dispatch refuses to settle and goes on with the rest', async () => {
    const refused = await debit(nextClientId());
    const voided = await debit(nextClientId());
    const dispatch = new FakeDispatch();
    dispatch.refused.add(refused.taskKey);

    await services.sweeper(dispatch).sweepOnce(inTheFuture(6));

    await expect(chargeOf(refused.taskKey)).resolves.toMatchObject({ state: 'held' });
    await expect(chargeOf(voided.taskKey)).resolves.toMatchObject({ state: 'refunded' });
  });

  it('keeps many held charges with one question to dispatch and one write', async () => {
    const clientId = nextClientId();
    const charges = await Promise.all(Array.from({ length: 30 }, () => debit(clientId)));
    const dispatch = new FakeDispatch();
    for (const { taskKey } of charges) dispatch.created.add(taskKey);

    const outcome = await services.sweeper(dispatch).sweepOnce(inTheFuture(6));

    expect(outcome).toMatchObject({ kept: 30, refunded: 0, failed: 0 });
    expect(dispatch.asked).toHaveLength(1);
    for (const { taskKey } of charges) await expect(chargeOf(taskKey)).resolves.toMatchObject({ state: 'kept' });
  });

  it('sweeps once the application has started, one round at a time, and lets a round finish on shutdown', async () => {
    const clientId = nextClientId();
    const { taskKey } = await debit(clientId);
    await database.$executeRaw`UPDATE "billing"."task_charges" SET debited_at = debited_at - interval '1 minute' WHERE task_key = ${taskKey}::uuid`;
    let answer: () => void = () => undefined;
    const dispatch = new FakeDispatch();
    dispatch.holdAnswers = new Promise<void>((resolve) => (answer = resolve));
    const sut = services.sweeper(dispatch);
    const rounds = vi.spyOn(sut, 'sweepOnce');
    expect(rounds).not.toHaveBeenCalled();

    sut.onApplicationBootstrap();
    await eventually(() => expect(dispatch.asked).toHaveLength(1), { timeoutMs: 5_000 });
    // While a round waits for dispatch, no second round starts.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(rounds).toHaveBeenCalledTimes(1);

    let stopped = false;
    const stopping = sut.onModuleDestroy().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    answer();
    await stopping;
    await expect(chargeOf(taskKey)).resolves.toMatchObject({ state: 'refunded' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(rounds).toHaveBeenCalledTimes(1);
  });
});
