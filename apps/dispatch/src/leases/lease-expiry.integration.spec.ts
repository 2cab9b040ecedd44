import type { TaskClaim } from '@smsq/contracts';
import { eventually, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { LeaseExpiry } from './lease-expiry.js';

const CLIENT = 5;
const MAX_ATTEMPTS = 2;

describe(`${LeaseExpiry.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** A second dispatch instance on the same database. */
  let twin: DispatchUnderTest;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: 1, maxAttempts: MAX_ATTEMPTS });
    twin = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: 1, maxAttempts: MAX_ATTEMPTS });
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

  async function createTask(): Promise<{ id: number; taskKey: string }> {
    const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 60_000).toISOString() });
    const { task } = await dispatch.creation.create(command);
    return { id: task.id, taskKey: command.taskKey };
  }

  function claim(tokenId: number): Promise<TaskClaim> {
    return dispatch.claims.claim({ tokenId, phoneId });
  }

  const stored = (id: number) => dispatch.db.task.findUniqueOrThrow({ where: { id } });

  /** Sweeps until the claim of task `id` has run out and been settled. */
  function expiryOf(id: number, status: 'pending' | 'failed') {
    return eventually(
      async () => {
        await dispatch.leases.sweepOnce();
        const task = await stored(id);
        expect(task.status).toBe(status);
        return task;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  }

  it('returns an unreported claim to pending once its lease runs out, the attempt counted', async () => {
    const task = await createTask();
    await expect(claim(1)).resolves.toMatchObject({ claimed: true, task: { id: task.id, attempt: 1 } });

    const returned = await expiryOf(task.id, 'pending');

    // The last holder stays recorded until the next claim, so its late report still counts.
    expect(returned).toMatchObject({ attempts: 1, claimedByTokenId: 1, claimExpiresAt: null, failedAt: null, error: null });
    await expect(claim(2)).resolves.toMatchObject({ claimed: true, task: { id: task.id, attempt: 2 } });
  });

  it('leaves a claim alone while its lease lasts', async () => {
    const task = await createTask();
    await claim(1);
    // A lease that outlasts the sweep: this suite's 1 s could run out before it on a busy machine.
    await dispatch.db.task.update({ where: { id: task.id }, data: { claimExpiresAt: new Date(Date.now() + 60_000) } });

    const transactions = vi.spyOn(dispatch.db, '$transaction');
    try {
      await expect(dispatch.leases.sweepOnce()).resolves.toEqual({ returned: 0, failed: 0 });
      // One look finds nothing lapsed: no transaction is opened to settle nothing.
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    expect((await stored(task.id)).status).toBe('claimed');
  });

  it('fails the task after the last attempt and refunds it exactly once, however many relays run at once', async () => {
    const task = await createTask();
    await claim(1);
    await expiryOf(task.id, 'pending');
    await claim(2);

    const failed = await expiryOf(task.id, 'failed');

    expect(failed).toMatchObject({
      attempts: MAX_ATTEMPTS,
      error: `no report within the claim timeout after ${MAX_ATTEMPTS} attempts`,
      failedAt: expect.any(Date),
      // The last holder stays recorded, so its late report is answered truthfully.
      claimedByTokenId: 2,
    });
    const balanceBefore = dispatch.billing.balance(CLIENT);
    dispatch.billing.duringRefund = () => new Promise((resolve) => setTimeout(resolve, 20));
    await Promise.all([dispatch.newRelay().relayOnce(), dispatch.newRelay().relayOnce()]);
    await Promise.all([dispatch.newRelay().relayOnce(), dispatch.newRelay().relayOnce()]);

    expect(dispatch.billing.refundRequestsFor(task.taskKey)).toBe(1);
    expect(dispatch.billing.refundCalls).toEqual([{ taskKey: task.taskKey, reason: 'task_failed' }]);
    expect(dispatch.billing.balance(CLIENT)).toBe(balanceBefore + 1);
    await expect(dispatch.reports.report({ tokenId: 2, id: task.id, status: 'sent' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(dispatch.reports.report({ tokenId: 2, id: task.id, status: 'failed' })).resolves.toEqual({ id: task.id, status: 'failed' });
    expect(await dispatch.db.outboxMessage.count()).toBe(1);
  });

  it('settles each expired claim once when two dispatch instances sweep at the same time', async () => {
    const tasks = [];
    for (let i = 0; i < 40; i++) tasks.push(await createTask());
    for (let i = 0; i < 40; i++) await claim(1);
    // The last attempt: every one of them fails and is owed a refund.
    await dispatch.db.task.updateMany({ data: { attempts: MAX_ATTEMPTS, claimExpiresAt: new Date(Date.now() - 1_000) } });

    const sweeps = await Promise.all([dispatch.leases.sweepOnce(), twin.leases.sweepOnce(), dispatch.leases.sweepOnce(), twin.leases.sweepOnce()]);

    expect(sweeps.reduce((sum, sweep) => sum + sweep.failed, 0)).toBe(40);
    const refunds = await dispatch.db.outboxMessage.findMany();
    expect(refunds).toHaveLength(40);
    expect(new Set(refunds.map((row) => (row.payload as { taskKey: string }).taskKey))).toEqual(new Set(tasks.map((task) => task.taskKey)));
  });
});
