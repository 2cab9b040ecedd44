import type { TaskClaim } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { REPORT_GRACE_S } from './leases.repository.js';
import { TaskExpiry } from './task-expiry.js';

const CLIENT = 5;
const MAX_AGE_S = 3_600;

describe(`${TaskExpiry.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** A second dispatch instance on the same database. */
  let twin: DispatchUnderTest;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: 300, taskMaxAgeS: MAX_AGE_S });
    twin = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: 300, taskMaxAgeS: MAX_AGE_S });
  });

  afterAll(async () => {
    await dispatch?.close();
    await twin?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    phoneId = (await dispatch.phones.register({ clientId: CLIENT, name: 'pixel', phoneLimit: 2 })).phone.id;
  });

  async function createTask(expiresAt?: Date): Promise<{ id: number; taskKey: string }> {
    const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 60_000).toISOString(), ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) });
    const { task } = await dispatch.creation.create(command);
    return { id: task.id, taskKey: command.taskKey };
  }

  function claim(tokenId: number): Promise<TaskClaim> {
    return dispatch.claims.claim({ tokenId, phoneId });
  }

  const stored = (id: number) => dispatch.db.task.findUniqueOrThrow({ where: { id } });
  /** Moves a stored task's expiry, as time passing would. */
  const expireNow = (id: number) => dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET expires_at = now() - interval '1 second' WHERE id = ${id}`;

  it('never hands out a task past its expiry, fails it as expired and refunds it exactly once, whichever instances sweep', async () => {
    const task = await createTask(new Date(Date.now() + 60_000));
    await expireNow(task.id);

    await expect(claim(1)).resolves.toMatchObject({ claimed: false });
    const swept = await Promise.all([dispatch.expiry.sweepOnce(), twin.expiry.sweepOnce()]);

    expect(swept.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await stored(task.id)).toMatchObject({ status: 'failed', error: 'expired', failedAt: expect.any(Date), attempts: 0 });
    await Promise.all([dispatch.newRelay().relayOnce(), twin.newRelay(dispatch.billing).relayOnce()]);
    await dispatch.newRelay().relayOnce();
    expect(dispatch.billing.refundCalls).toEqual([{ taskKey: task.taskKey, reason: 'task_expired' }]);
    expect(await dispatch.expiry.sweepOnce()).toBe(0);
  });

  it('opens no transaction when no task waits past its expiry', async () => {
    await createTask(new Date(Date.now() + 60_000));
    const transactions = vi.spyOn(dispatch.db, '$transaction');
    try {
      expect(await dispatch.expiry.sweepOnce()).toBe(0);
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
  });

  it('lets a claim run no later than the task’s expiry, and leaves a claimed task to its lease', async () => {
    const expiresAt = new Date(Date.now() + 30_000);
    const task = await createTask(expiresAt);

    const claimed = await claim(1);

    expect(claimed).toMatchObject({ claimed: true, task: { id: task.id } });
    expect(Date.parse((claimed as { task: { claimExpiresAt: string } }).task.claimExpiresAt)).toBe(expiresAt.getTime());
    await expireNow(task.id);
    expect(await dispatch.expiry.sweepOnce()).toBe(0);
    expect((await stored(task.id)).status).toBe('claimed');
    // Its report still counts: the phone sent it within its claim.
    await expect(dispatch.reports.report({ tokenId: 1, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });
  });

  it('gives a task without an expiry of its own the server’s maximum age, counted from when it is due', async () => {
    const before = Date.now();
    const task = await createTask();
    const scheduled = new Date(Date.now() + 86_400_000);
    const later = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: scheduled.toISOString() }));

    const dueNow = (await stored(task.id)).expiresAt!.getTime();
    expect(dueNow).toBeGreaterThanOrEqual(before + MAX_AGE_S * 1000);
    expect(dueNow).toBeLessThanOrEqual(Date.now() + MAX_AGE_S * 1000);
    expect(later.task.expiresAt).toBe(new Date(scheduled.getTime() + MAX_AGE_S * 1000).toISOString());
  });

  it('gives the last holder of a claim that lapsed at the expiry a grace to report, then ends the task as expired, even on its last attempt', async () => {
    const reported = await createTask(new Date(Date.now() + 60_000));
    const silent = await createTask(new Date(Date.now() + 60_000));
    await claim(1);
    await claim(1);
    // Both claims lapse with their tasks' expiry, on what would be their last attempt.
    await dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET attempts = 99, expires_at = now() - interval '1 second', claim_expires_at = now() - interval '1 second'`;

    await dispatch.leases.sweepOnce();
    expect(await dispatch.expiry.sweepOnce()).toBe(0);

    expect((await stored(silent.id)).status).toBe('pending');
    await expect(dispatch.reports.report({ tokenId: 1, id: reported.id, status: 'sent' })).resolves.toEqual({ id: reported.id, status: 'sent' });
    await dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET expires_at = now() - ${REPORT_GRACE_S + 1}::int * interval '1 second'`;
    expect(await dispatch.expiry.sweepOnce()).toBe(1);
    expect(await stored(silent.id)).toMatchObject({ status: 'failed', error: 'expired' });
    expect((await stored(reported.id)).status).toBe('sent');
  });
});
