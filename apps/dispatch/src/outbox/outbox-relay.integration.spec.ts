import { DomainError } from '@smsq/contracts';
import { BackoffSchedule, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { OutboxRelay } from './outbox-relay.js';

const CLIENT = 8;
const WORKER = 41;

describe(`${OutboxRelay.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    dispatch.billing.nextRefunds = [];
    dispatch.billing.duringRefund = () => undefined;
    dispatch.billing.refundCalls.length = 0;
    phoneId = (await dispatch.phones.register({ clientId: CLIENT, name: 'pixel', phoneLimit: 2 })).phone.id;
  });

  /** A task created (and debited), claimed and reported failed: its refund waits in the outbox. */
  async function failedTask(on: DispatchUnderTest = dispatch): Promise<string> {
    const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    const { task } = await on.creation.create(command);
    const claim = await on.claims.claim({ tokenId: WORKER, phoneId });
    expect(claim).toMatchObject({ claimed: true, task: { id: task.id } });
    await on.reports.report({ tokenId: WORKER, id: task.id, status: 'failed', error: 'carrier refused' });
    return command.taskKey;
  }

  const outboxRows = () => dispatch.db.outboxMessage.findMany({ orderBy: { id: 'asc' } });

  it('delivers the refund of a failed task to billing and marks it published', async () => {
    const taskKey = await failedTask();
    const balanceBefore = dispatch.billing.balance(CLIENT);

    await expect(dispatch.newRelay().relayOnce()).resolves.toEqual({ delivered: 1, failed: 0, interrupted: false });

    expect(dispatch.billing.refundCalls).toEqual([{ taskKey, reason: 'task_failed' }]);
    expect(dispatch.billing.balance(CLIENT)).toBe(balanceBefore + 1);
    expect(await outboxRows()).toEqual([expect.objectContaining({ publishedAt: expect.any(Date), attempts: 1, lastError: null })]);
    await expect(dispatch.newRelay().relayOnce()).resolves.toEqual({ delivered: 0, failed: 0, interrupted: false });
    expect(dispatch.billing.refundCalls).toHaveLength(1);
  });

  it('keeps trying while billing is unavailable and refunds exactly once when it answers', async () => {
    const taskKey = await failedTask();
    const balanceBefore = dispatch.billing.balance(CLIENT);
    dispatch.billing.nextRefunds = ['unavailable', 'unavailable'];

    await expect(dispatch.newRelay().relayOnce()).resolves.toMatchObject({ delivered: 0, interrupted: true });
    expect(await outboxRows()).toEqual([expect.objectContaining({ publishedAt: null, attempts: 1, lastError: expect.stringContaining('did not answer') })]);
    await dispatch.newRelay().relayOnce();
    await expect(dispatch.newRelay().relayOnce()).resolves.toMatchObject({ delivered: 1 });

    expect(dispatch.billing.refundRequestsFor(taskKey)).toBe(3);
    expect(dispatch.billing.refundedKeys()).toContain(taskKey);
    expect(dispatch.billing.balance(CLIENT)).toBe(balanceBefore + 1);
    expect(await outboxRows()).toEqual([expect.objectContaining({ publishedAt: expect.any(Date), attempts: 3, lastError: null })]);
  });

  it('credits once when billing refunded but its answer was lost, and the refund is sent again', async () => {
    const taskKey = await failedTask();
    const balanceBefore = dispatch.billing.balance(CLIENT);
    dispatch.billing.nextRefunds = ['lost-answer'];

    await dispatch.newRelay().relayOnce();
    await dispatch.newRelay().relayOnce();

    expect(dispatch.billing.refundRequestsFor(taskKey)).toBe(2);
    expect(dispatch.billing.balance(CLIENT)).toBe(balanceBefore + 1);
    expect((await outboxRows())[0]?.publishedAt).toBeInstanceOf(Date);
  });

  it('stops a round while billing is unavailable instead of asking for every message', async () => {
    await failedTask();
    await failedTask();
    dispatch.billing.nextRefunds = ['unavailable'];

    await expect(dispatch.newRelay().relayOnce()).resolves.toEqual({ delivered: 0, failed: 1, interrupted: true });
    expect(dispatch.billing.refundCalls).toHaveLength(1);
    await expect(dispatch.newRelay().relayOnce()).resolves.toEqual({ delivered: 2, failed: 0, interrupted: false });
  });

  it('does not let a message billing refuses hold back the ones after it', async () => {
    const refused = await failedTask();
    const next = await failedTask();
    dispatch.billing.nextRefunds = [new DomainError('invalid_request', 'refused')];

    await expect(dispatch.newRelay().relayOnce()).resolves.toEqual({ delivered: 1, failed: 1, interrupted: false });

    expect(dispatch.billing.refundedKeys()).toContain(next);
    expect(dispatch.billing.refundedKeys()).not.toContain(refused);
    const [first, second] = await outboxRows();
    expect(first).toMatchObject({ payload: { taskKey: refused }, publishedAt: null, lastError: expect.stringContaining('refused') });
    expect(second).toMatchObject({ payload: { taskKey: next }, publishedAt: expect.any(Date) });
  });

  it('backs a message billing keeps refusing off on its own, while the ones queued after it are refunded promptly and in order', async () => {
    const refused = await failedTask();
    const queuedAfter = [await failedTask(), await failedTask()];
    const refusals: number[] = [];
    dispatch.billing.duringRefund = ({ taskKey }) => {
      if (taskKey !== refused) return;
      refusals.push(Date.now());
      throw new DomainError('invalid_request', 'refused');
    };
    const relay = dispatch.newRelay().withBackoff({ baseMs: 100, maxMs: 400 });

    await expect(relay.relayOnce()).resolves.toEqual({ delivered: 2, failed: 1, interrupted: false });
    // Rounds as the relay's job runs them, only closer together; a message queued meanwhile goes in the round after.
    // At least a second and at least 20 rounds: a slow machine runs fewer rounds a second.
    const started = Date.now();
    let rounds = 1;
    for (; Date.now() < started + 1_000 || rounds <= 20; rounds++) {
      if (rounds === 10) queuedAfter.push(await failedTask());
      const before = dispatch.billing.refundCalls.length;
      await relay.relayOnce();
      if (rounds === 10) expect(dispatch.billing.refundCalls.slice(before).map(({ taskKey }) => taskKey)).toContain(queuedAfter[2]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sinceFirstRefusal = Date.now() - refusals[0]!;

    expect(dispatch.billing.refundCalls.map(({ taskKey }) => taskKey).filter((key) => key !== refused)).toEqual(queuedAfter);
    expect(dispatch.billing.refundedKeys()).not.toContain(refused);
    // Every round would have asked again; the back-off (0.1 s, 0.2 s, 0.4 s, then 0.4 s, each ±20 %) asks a handful of times.
    const backoff = new BackoffSchedule(100, 400);
    expect(backoff.tooShortWaits(refusals)).toEqual([]);
    expect(refusals.length).toBeGreaterThanOrEqual(3);
    expect(refusals.length).toBeLessThanOrEqual(backoff.mostAttemptsWithin(sinceFirstRefusal));
    // Asked in every round it would be refused once per call (the one before the loop and one a
    // round): the back-off itself is the two checks above, which hold however long a round takes.
    expect(refusals.length).toBeLessThan(rounds);
    const [row] = await outboxRows();
    expect(row).toMatchObject({ payload: { taskKey: refused }, publishedAt: null, attempts: refusals.length, lastError: expect.stringContaining('refused') });
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(refusals.at(-1)! + 0.8 * 100);
  });

  it('leaves a message its turn while billing is unavailable, and refunds in queue order once it answers', async () => {
    const first = await failedTask();
    const second = await failedTask();
    dispatch.billing.nextRefunds = ['unavailable', 'unavailable', 'unavailable'];
    const relay = dispatch.newRelay().withBackoff({ baseMs: 60_000, maxMs: 60_000 });

    for (let round = 0; round < 3; round++) await expect(relay.relayOnce()).resolves.toEqual({ delivered: 0, failed: 1, interrupted: true });
    const [waiting] = await outboxRows();
    expect(waiting).toMatchObject({ payload: { taskKey: first }, attempts: 3, publishedAt: null });
    // Not pushed out as a refused message would be (by a minute here): the outage was billing's, not the message's.
    expect(waiting!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now());

    await expect(relay.relayOnce()).resolves.toEqual({ delivered: 2, failed: 0, interrupted: false });
    expect(dispatch.billing.refundCalls.map(({ taskKey }) => taskKey)).toEqual([first, first, first, first, second]);
  });

  it('sends each message once when several relays run at the same time', async () => {
    const taskKeys: string[] = [];
    for (let i = 0; i < 12; i++) taskKeys.push(await failedTask());
    // Each refund takes a while, so the relays really overlap.
    dispatch.billing.duringRefund = () => new Promise((resolve) => setTimeout(resolve, 10));

    const rounds = await Promise.all(Array.from({ length: 4 }, () => dispatch.newRelay().relayOnce()));

    expect(rounds.reduce((sum, round) => sum + round.delivered, 0)).toBe(12);
    expect(dispatch.billing.refundCalls).toHaveLength(12);
    expect(taskKeys.every((key) => dispatch.billing.refundRequestsFor(key) === 1)).toBe(true);
    expect((await outboxRows()).every((row) => row.publishedAt !== null)).toBe(true);
  });

  it('delivers what an instance that went away left behind', async () => {
    const gone = await dispatchUnderTest(database.url, 'A');
    const taskKey = await failedTask(gone);
    // Killed before its relay ran: the refund is in the database, not in that process.
    await gone.close();

    await dispatch.newRelay().relayOnce();

    expect(dispatch.billing.refundCalls).toEqual([{ taskKey, reason: 'task_failed' }]);
  });
});
