import { Patterns, type ClaimedTask } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { TaskReportsService, UNEXPLAINED_FAILURE } from './task-reports.service.js';

const HOLDER = 31;
const OTHER = 32;

describe(`${TaskReportsService.name} on Postgres`, () => {
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
    phoneId = (await dispatch.phones.register({ clientId: 1, name: 'pixel', phoneLimit: 2 })).phone.id;
  });

  async function claimedBy(tokenId: number): Promise<ClaimedTask> {
    await insertTask(dispatch.db, { phoneId });
    const claim = await dispatch.claims.claim({ tokenId, phoneId });
    if (!claim.claimed) throw new Error('nothing to claim');
    return claim.task;
  }

  const stored = (id: number) => dispatch.db.task.findUniqueOrThrow({ where: { id } });
  const outboxRows = () => dispatch.db.outboxMessage.findMany({ orderBy: { id: 'asc' } });

  it('marks a task sent for the token holding its claim', async () => {
    const task = await claimedBy(HOLDER);

    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });

    const row = await stored(task.id);
    expect(row).toMatchObject({ status: 'sent', failedAt: null, error: null, claimExpiresAt: null });
    expect(row.sentAt).toBeInstanceOf(Date);
    expect(await outboxRows()).toEqual([]);
  });

  it("records an encrypted message's parts as its worker counted them, and the phone's count for today takes the difference", async () => {
    await dispatch.db.phone.update({ where: { id: phoneId }, data: { dailyLimit: 100 } });
    await insertTask(dispatch.db, { phoneId, encrypted: true });
    const claim = await dispatch.claims.claim({ tokenId: HOLDER, phoneId });
    if (!claim.claimed) throw new Error('nothing to claim');
    expect(claim.task).toMatchObject({ encrypted: true, parts: 1 });
    expect((await dispatch.db.phone.findUniqueOrThrow({ where: { id: phoneId } })).daySends).toBe(1);

    await dispatch.reports.reportMany({ tokenId: HOLDER, reports: [{ id: claim.task.id, status: 'sent', segments: 3 }] });

    expect(await stored(claim.task.id)).toMatchObject({ status: 'sent', parts: 3, partsKnown: true });
    expect((await dispatch.db.phone.findUniqueOrThrow({ where: { id: phoneId } })).daySends).toBe(3);
    // Told again (a repeated report), or of a readable message, parts change no more.
    await dispatch.reports.report({ tokenId: HOLDER, id: claim.task.id, status: 'sent', segments: 5 });
    expect(await stored(claim.task.id)).toMatchObject({ parts: 3 });
  });

  it('fails a task the worker could not decrypt for good, with its refund, whatever attempts are left', async () => {
    await insertTask(dispatch.db, { phoneId, encrypted: true });
    const claim = await dispatch.claims.claim({ tokenId: HOLDER, phoneId });
    if (!claim.claimed) throw new Error('nothing to claim');
    const { taskKey } = await stored(claim.task.id);

    await expect(
      dispatch.reports.report({ tokenId: HOLDER, id: claim.task.id, status: 'failed', reason: 'cannot_decrypt', error: 'cannot decrypt: the passphrase is wrong' }),
    ).resolves.toEqual({ id: claim.task.id, status: 'failed' });

    expect(await stored(claim.task.id)).toMatchObject({ status: 'failed', error: 'cannot decrypt: the passphrase is wrong', partsKnown: false });
    expect(await outboxRows()).toEqual([expect.objectContaining({ pattern: Patterns.billing.refund, payload: { taskKey, reason: 'task_failed' } })]);
  });

  it('fails a task with the worker’s error and owes its refund in the same transaction', async () => {
    const task = await claimedBy(HOLDER);
    const { taskKey } = await stored(task.id);

    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed', error: 'no signal' })).resolves.toEqual({
      id: task.id,
      status: 'failed',
    });

    expect(await stored(task.id)).toMatchObject({ status: 'failed', error: 'no signal', sentAt: null, failedAt: expect.any(Date) });
    expect(await outboxRows()).toEqual([
      expect.objectContaining({ pattern: Patterns.billing.refund, payload: { taskKey, reason: 'task_failed' }, publishedAt: null, attempts: 0 }),
    ]);
  });

  it('keeps neither the failure nor the refund when the transaction does not commit', async () => {
    const task = await claimedBy(HOLDER);
    // The outbox insert fails inside the report's transaction: the task must not stay failed without its refund.
    await dispatch.db.$executeRawUnsafe(`ALTER TABLE "dispatch"."outbox_messages" ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`);
    try {
      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed' })).rejects.toThrow();
    } finally {
      await dispatch.db.$executeRawUnsafe(`ALTER TABLE "dispatch"."outbox_messages" DROP CONSTRAINT refuse_all`);
    }

    expect(await stored(task.id)).toMatchObject({ status: 'claimed', failedAt: null });
    expect(await outboxRows()).toEqual([]);
  });

  it('records a failure without a reason as such', async () => {
    const task = await claimedBy(HOLDER);

    await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed' });

    expect((await stored(task.id)).error).toBe(UNEXPLAINED_FAILURE);
  });

  it('answers not_found to a token that does not hold the claim, and to an unknown id', async () => {
    const task = await claimedBy(HOLDER);

    await expect(dispatch.reports.report({ tokenId: OTHER, id: task.id, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id + 100, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.reports.report({ tokenId: HOLDER, id: 2 ** 40, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await stored(task.id)).status).toBe('claimed');
  });

  it('answers the same final status again as the first time, and refunds once', async () => {
    const task = await claimedBy(HOLDER);

    const answers = await Promise.all(Array.from({ length: 5 }, () => dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed', error: 'x' })));

    expect(answers).toEqual(Array(5).fill({ id: task.id, status: 'failed' }));
    expect(await outboxRows()).toHaveLength(1);
    const sent = await claimedBy(HOLDER);
    await dispatch.reports.report({ tokenId: HOLDER, id: sent.id, status: 'sent' });
    await expect(dispatch.reports.report({ tokenId: HOLDER, id: sent.id, status: 'sent' })).resolves.toEqual({ id: sent.id, status: 'sent' });
  });

  it('refuses a different status for a final task as a conflict, changing nothing', async () => {
    const task = await claimedBy(HOLDER);
    await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' });

    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed' })).rejects.toMatchObject({ code: 'conflict' });
    expect((await stored(task.id)).status).toBe('sent');
    expect(await outboxRows()).toEqual([]);
  });

  it('answers not_found to the old holder once its claim expired and another token claimed the task', async () => {
    const task = await claimedBy(HOLDER);
    // The lease ran out: as the lease expiry leaves it, then claimed by the next worker.
    await dispatch.db.task.update({ where: { id: task.id }, data: { claimExpiresAt: new Date(Date.now() - 1_000) } });
    await dispatch.leases.sweepOnce();
    const again = await dispatch.claims.claim({ tokenId: OTHER, phoneId });

    expect(again).toMatchObject({ claimed: true, task: { id: task.id, attempt: 2 } });
    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.reports.report({ tokenId: OTHER, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });
  });

  it('takes the old holder’s late report while its expired task waits to be claimed again, so it is not sent twice', async () => {
    const task = await claimedBy(HOLDER);
    await dispatch.db.task.update({ where: { id: task.id }, data: { claimExpiresAt: new Date(Date.now() - 1_000) } });
    await dispatch.leases.sweepOnce();
    expect((await stored(task.id)).status).toBe('pending');

    await expect(dispatch.reports.report({ tokenId: OTHER, id: task.id, status: 'sent' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });
    await expect(dispatch.claims.claim({ tokenId: OTHER, phoneId })).resolves.toMatchObject({ claimed: false });
  });

  it('still takes the holder’s report when its lease ran out but nobody took the task back yet', async () => {
    const task = await claimedBy(HOLDER);
    await dispatch.db.task.update({ where: { id: task.id }, data: { claimExpiresAt: new Date(Date.now() - 1_000) } });

    await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });
    await expect(dispatch.leases.sweepOnce()).resolves.toEqual({ returned: 0, failed: 0 });
  });

  describe('delivered', () => {
    it('sends a claimed task and records its delivery report at once', async () => {
      const task = await claimedBy(HOLDER);

      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' })).resolves.toEqual({ id: task.id, status: 'sent' });

      const row = await stored(task.id);
      expect(row).toMatchObject({ status: 'sent', claimExpiresAt: null, failedAt: null });
      expect(row.sentAt).toBeInstanceOf(Date);
      expect(row.deliveredAt).toEqual(row.sentAt);
      expect(await outboxRows()).toEqual([]);
    });

    it('adds the delivery report to a sent task once; a repeat keeps the first time', async () => {
      const task = await claimedBy(HOLDER);
      await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' });
      const { sentAt } = await stored(task.id);

      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' })).resolves.toEqual({ id: task.id, status: 'sent' });
      const { deliveredAt } = await stored(task.id);
      expect(deliveredAt).toBeInstanceOf(Date);
      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' })).resolves.toEqual({ id: task.id, status: 'sent' });
      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' })).resolves.toEqual({ id: task.id, status: 'sent' });

      expect(await stored(task.id)).toMatchObject({ status: 'sent', sentAt, deliveredAt });
    });

    it('records one delivery time however many reports race', async () => {
      const task = await claimedBy(HOLDER);

      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: i % 2 === 0 ? 'delivered' : 'sent' })),
      );

      expect(answers).toEqual(Array(6).fill({ id: task.id, status: 'sent' }));
      const row = await stored(task.id);
      expect(row.status).toBe('sent');
      expect(row.deliveredAt).toBeInstanceOf(Date);
    });

    it('is a conflict on a failed task, which stays failed without a delivery time', async () => {
      const task = await claimedBy(HOLDER);
      await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed' });

      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' })).rejects.toMatchObject({ code: 'conflict' });
      expect(await stored(task.id)).toMatchObject({ status: 'failed', sentAt: null, deliveredAt: null });
      expect(await outboxRows()).toHaveLength(1);
    });

    it('makes a later failure a conflict', async () => {
      const task = await claimedBy(HOLDER);
      await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' });

      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'failed' })).rejects.toMatchObject({ code: 'conflict' });
      expect(await outboxRows()).toEqual([]);
    });

    it('answers not_found to a token that does not hold the task, claimed or sent, and changes nothing', async () => {
      const task = await claimedBy(HOLDER);

      await expect(dispatch.reports.report({ tokenId: OTHER, id: task.id, status: 'delivered' })).rejects.toMatchObject({ code: 'not_found' });
      expect(await stored(task.id)).toMatchObject({ status: 'claimed', deliveredAt: null });
      await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'sent' });
      await expect(dispatch.reports.report({ tokenId: OTHER, id: task.id, status: 'delivered' })).rejects.toMatchObject({ code: 'not_found' });
      expect((await stored(task.id)).deliveredAt).toBeNull();
    });

    it('takes the old holder’s delivery report while its expired task waits to be claimed again', async () => {
      const task = await claimedBy(HOLDER);
      await dispatch.db.task.update({ where: { id: task.id }, data: { claimExpiresAt: new Date(Date.now() - 1_000) } });
      await dispatch.leases.sweepOnce();

      await expect(dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' })).resolves.toEqual({ id: task.id, status: 'sent' });
      expect(await stored(task.id)).toMatchObject({ status: 'sent', deliveredAt: expect.any(Date) });
      await expect(dispatch.claims.claim({ tokenId: OTHER, phoneId })).resolves.toMatchObject({ claimed: false });
    });

    it('shows in the owner’s task view with the time it came', async () => {
      const task = await claimedBy(HOLDER);
      await dispatch.reports.report({ tokenId: HOLDER, id: task.id, status: 'delivered' });
      const row = await stored(task.id);

      await expect(dispatch.lookup.get({ clientId: row.clientId, id: task.id })).resolves.toMatchObject({
        status: 'sent',
        sentAt: row.sentAt!.toISOString(),
        deliveredAt: row.deliveredAt!.toISOString(),
      });
    });
  });
});
