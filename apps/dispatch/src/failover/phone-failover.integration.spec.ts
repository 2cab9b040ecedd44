import fc from 'fast-check';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { MOVES_PER_SWEEP, PhoneFailover } from './phone-failover.js';

const CLIENT = 7;
const MAX_ATTEMPTS = 3;

describe(`${PhoneFailover.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** A second dispatch instance on the same database. */
  let twin: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A', { maxAttempts: MAX_ATTEMPTS });
    twin = await dispatchUnderTest(database.url, 'A', { maxAttempts: MAX_ATTEMPTS });
  });

  afterAll(async () => {
    await dispatch?.close();
    await twin?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
  });

  async function ownPhone(name: string, clientId = CLIENT): Promise<number> {
    return (await dispatch.phones.register({ clientId, name, phoneLimit: 10 })).phone.id;
  }

  /** No contact for an hour: silent, whatever SMSQ_PHONE_SILENT_S is. */
  const silence = (phoneId: number) => dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET last_contact_at = now() - interval '1 hour' WHERE id = ${phoneId}`;
  const stored = (id: number) => dispatch.db.task.findUniqueOrThrow({ where: { id } });
  const tasksOn = async (phoneId: number) => (await dispatch.db.task.findMany({ where: { phoneId }, orderBy: { id: 'asc' } })).map((task) => task.id);
  const eventsOf = async (type: string) => (await dispatch.db.webhookDelivery.findMany({ where: { type }, orderBy: { id: 'asc' } })).map((delivery) => delivery.taskId);

  async function listenToEverything(): Promise<void> {
    await dispatch.webhooks.create({ clientId: CLIENT, url: 'https://hooks.example.com/smsq', events: ['task.rerouted', 'phone.silent', 'phone.online', 'task.failed'] });
  }

  it('moves the due, unpinned tasks of a silent phone to the client’s phone in contact, once, whichever instances sweep', async () => {
    await listenToEverything();
    const quiet = await ownPhone('quiet');
    const alive = await ownPhone('alive');
    const waiting = [await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT }), await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT })];
    const pinned = await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT, pinned: true });
    const later = await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT, scheduledAt: new Date(Date.now() + 3_600_000) });
    await silence(quiet);

    const moved = await Promise.all([dispatch.failover.sweepOnce(), twin.failover.sweepOnce()]);

    expect(moved[0]! + moved[1]!).toBe(2);
    expect(await tasksOn(alive)).toEqual(waiting.map((task) => task.id));
    expect(await tasksOn(quiet)).toEqual([pinned.id, later.id]);
    for (const task of waiting) {
      expect(await stored(task.id)).toMatchObject({ status: 'pending', phoneId: alive, firstPhoneId: quiet, attempts: 0, taskKey: task.taskKey, reroutedBecause: 'phone_silent' });
      await expect(dispatch.lookup.get({ clientId: CLIENT, id: task.id })).resolves.toMatchObject({ phoneId: alive, firstPhoneId: quiet });
    }
    expect(await eventsOf('task.rerouted')).toEqual(waiting.map((task) => task.id));
    expect(await Promise.all([dispatch.failover.sweepOnce(), twin.failover.sweepOnce()])).toEqual([0, 0]);
  });

  it('leaves a task its lease returned with its phone, which may have sent it, until its holder says it sent nothing', async () => {
    const quiet = await ownPhone('quiet');
    const alive = await ownPhone('alive');
    const task = await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT });
    await dispatch.claims.claim({ tokenId: 1, phoneId: quiet });
    // The worker went away with the SMS in flight; its claim lapsed.
    await dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET claim_expires_at = now() - interval '1 second' WHERE id = ${task.id}`;
    await dispatch.leases.sweepOnce();
    await silence(quiet);

    expect(await dispatch.failover.sweepOnce()).toBe(0);
    expect(await stored(task.id)).toMatchObject({ status: 'pending', phoneId: quiet, attempts: 1 });
    await dispatch.phones.setActive({ phoneId: quiet, kind: 'own', active: false });
    expect((await stored(task.id)).phoneId).toBe(quiet);

    await expect(dispatch.reports.report({ tokenId: 1, id: task.id, status: 'failed', error: 'TTL expired', retry: true })).resolves.toEqual({ id: task.id, status: 'pending' });
    expect(await dispatch.failover.sweepOnce()).toBe(1);
    expect(await stored(task.id)).toMatchObject({ status: 'pending', phoneId: alive, firstPhoneId: quiet });
  });

  it('moves a bounded number of tasks per sweep, and the rest over the next sweeps', async () => {
    const quiet = await ownPhone('quiet');
    const alive = await ownPhone('alive');
    await dispatch.db.$executeRaw`
      INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local)
      SELECT gen_random_uuid(), ${CLIENT}, ${quiet}, '+381601234567', 'hello', 'pending', now() - interval '1 minute', '2026-01-01 00:00:00'
        FROM generate_series(1, ${MOVES_PER_SWEEP + 50})`;
    await silence(quiet);

    expect(await dispatch.failover.sweepOnce()).toBe(MOVES_PER_SWEEP);
    expect(await dispatch.failover.sweepOnce()).toBe(50);
    expect(await tasksOn(alive)).toHaveLength(MOVES_PER_SWEEP + 50);
  });

  it('leaves the tasks where they are while no other phone is in contact: they wait for their phone', async () => {
    const quiet = await ownPhone('quiet');
    const alsoQuiet = await ownPhone('also quiet');
    const task = await insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT });
    await silence(quiet);
    await silence(alsoQuiet);

    expect(await dispatch.failover.sweepOnce()).toBe(0);
    expect((await stored(task.id)).phoneId).toBe(quiet);
  });

  it('moves a disabled phone’s waiting tasks at once, and never a claimed one', async () => {
    const first = await ownPhone('first');
    const second = await ownPhone('second');
    const waiting = await insertTask(dispatch.db, { phoneId: first, clientId: CLIENT });
    const held = await insertTask(dispatch.db, { phoneId: first, clientId: CLIENT, scheduledAt: new Date(Date.now() - 120_000) });
    await expect(dispatch.claims.claim({ tokenId: 1, phoneId: first })).resolves.toMatchObject({ claimed: true, task: { id: held.id } });

    await dispatch.phones.setActive({ phoneId: first, kind: 'own', active: false, clientId: CLIENT });

    expect(await stored(waiting.id)).toMatchObject({ phoneId: second, firstPhoneId: first, status: 'pending', reroutedBecause: 'phone_disabled' });
    expect(await stored(held.id)).toMatchObject({ phoneId: first, status: 'claimed' });
    await expect(dispatch.reports.report({ tokenId: 1, id: held.id, status: 'sent' })).resolves.toEqual({ id: held.id, status: 'sent' });
  });

  it('routes new tasks to a phone in contact first, and to the first phone as before when none is', async () => {
    const first = await ownPhone('first');
    const second = await ownPhone('second');
    await silence(first);

    const toOnline = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT }));
    await silence(second);
    const toFirst = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT }));
    const pinned = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, requestedPhoneId: second }));

    expect([toOnline.task.phoneId, toFirst.task.phoneId, pinned.task.phoneId]).toEqual([second, first, second]);
    expect((await stored(pinned.task.id)).pinned).toBe(true);
    expect((await stored(toOnline.task.id)).pinned).toBe(false);
  });

  describe('a failure the phone says sent nothing (retry)', () => {
    it('goes back to the queue on another phone in contact, one debit and no refund, and is sent there', async () => {
      await listenToEverything();
      const first = await ownPhone('first');
      const second = await ownPhone('second');
      const command = taskCreateCommand({ clientId: CLIENT, requestedPhoneId: first, scheduledAt: new Date(Date.now() - 1_000).toISOString() });
      const created = await dispatch.creation.create(command);
      // Pinned tasks stay: unpin it to let the retry choose.
      await dispatch.db.task.update({ where: { id: created.task.id }, data: { pinned: false } });
      await dispatch.claims.claim({ tokenId: 1, phoneId: first });

      await expect(dispatch.reports.report({ tokenId: 1, id: created.task.id, status: 'failed', error: 'RESULT_ERROR_NO_SERVICE', retry: true })).resolves.toEqual({
        id: created.task.id,
        status: 'pending',
      });
      // No phone holds it any more: a repeat of the report finds no task of its token, and changes nothing.
      await expect(dispatch.reports.report({ tokenId: 1, id: created.task.id, status: 'failed', retry: true })).rejects.toMatchObject({ code: 'not_found' });

      expect(await stored(created.task.id)).toMatchObject({ status: 'pending', phoneId: second, firstPhoneId: first, attempts: 1, error: null, reroutedBecause: 'retry' });
      await expect(dispatch.claims.claim({ tokenId: 2, phoneId: second })).resolves.toMatchObject({ claimed: true, task: { id: created.task.id, attempt: 2 } });
      await expect(dispatch.reports.report({ tokenId: 2, id: created.task.id, status: 'sent' })).resolves.toEqual({ id: created.task.id, status: 'sent' });
      await dispatch.newRelay().relayOnce();
      expect(dispatch.billing.debitCalls.filter((debit) => debit.taskKey === command.taskKey)).toHaveLength(1);
      expect(dispatch.billing.refundCalls).toEqual([]);
      expect(await eventsOf('task.rerouted')).toEqual([created.task.id]);
    });

    it('waits out a back-off on the same phone when it is the only one, and fails for good and is refunded once after SMSQ_MAX_ATTEMPTS', async () => {
      const only = await ownPhone('only');
      const command = taskCreateCommand({ clientId: CLIENT, scheduledAt: new Date(Date.now() - 1_000).toISOString() });
      const id = (await dispatch.creation.create(command)).task.id;
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        await expect(dispatch.claims.claim({ tokenId: 1, phoneId: only })).resolves.toMatchObject({ claimed: true, task: { id, attempt } });
        await expect(dispatch.reports.report({ tokenId: 1, id, status: 'failed', error: 'radio off', retry: true })).resolves.toEqual({ id, status: 'pending' });
        expect(await stored(id)).toMatchObject({ phoneId: only, firstPhoneId: null, retryAfter: expect.any(Date) });
        await expect(dispatch.claims.claim({ tokenId: 1, phoneId: only })).resolves.toMatchObject({ claimed: false });
        await dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET retry_after = now() - interval '1 second' WHERE id = ${id}`;
      }
      await dispatch.claims.claim({ tokenId: 1, phoneId: only });

      await expect(dispatch.reports.report({ tokenId: 1, id, status: 'failed', error: 'radio off', retry: true })).resolves.toEqual({ id, status: 'failed' });
      await Promise.all([dispatch.newRelay().relayOnce(), twin.newRelay(dispatch.billing).relayOnce()]);

      expect(await stored(id)).toMatchObject({ status: 'failed', error: 'radio off', attempts: MAX_ATTEMPTS });
      expect(dispatch.billing.refundCalls).toEqual([{ taskKey: command.taskKey, reason: 'task_failed' }]);
    });

    it('is refused on anything but a failure, and a failure without it stays final', async () => {
      const phone = await ownPhone('phone');
      const task = await insertTask(dispatch.db, { phoneId: phone, clientId: CLIENT });
      await dispatch.claims.claim({ tokenId: 1, phoneId: phone });

      await expect(dispatch.reports.report({ tokenId: 1, id: task.id, status: 'sent', retry: true })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(dispatch.reports.report({ tokenId: 1, id: task.id, status: 'failed', error: 'invalid number' })).resolves.toEqual({ id: task.id, status: 'failed' });
    });
  });

  describe('daily limits', () => {
    it('hand out no more than the limit under concurrent creates and claims, route past a full phone, and start again on the owner’s next day', async () => {
      const limited = await ownPhone('limited');
      await dispatch.phones.setLimits({ phoneId: limited, kind: 'own', dailyLimit: 3, timeZone: 'Pacific/Kiritimati' });
      const past = new Date(Date.now() - 1_000).toISOString();
      await Promise.all(Array.from({ length: 10 }, () => dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: past }))));

      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? twin : dispatch).claims.claim({ tokenId: 1, phoneId: limited })));

      expect(claims.filter((claim) => claim.claimed)).toHaveLength(3);
      const spare = await ownPhone('spare');
      const next = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: past }));
      expect(next.task.phoneId).toBe(spare);
      // A full phone's waiting tasks go to the phone with room.
      expect(await dispatch.failover.sweepOnce()).toBe(7);
      // The owner's midnight: the count was yesterday's.
      await dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET day_of = day_of - 1 WHERE id = ${limited}`;
      await insertTask(dispatch.db, { phoneId: limited, clientId: CLIENT, pinned: true });
      await expect(dispatch.claims.claim({ tokenId: 1, phoneId: limited })).resolves.toMatchObject({ claimed: true });
      const phone = await dispatch.db.phone.findUniqueOrThrow({ where: { id: limited } });
      expect(phone.daySends).toBe(1);
    });

    it('gives back the count of a claim released or retried: it sent nothing', async () => {
      const limited = await ownPhone('limited');
      await dispatch.phones.setLimits({ phoneId: limited, kind: 'own', dailyLimit: 1 });
      const first = await insertTask(dispatch.db, { phoneId: limited, clientId: CLIENT, pinned: true });
      await insertTask(dispatch.db, { phoneId: limited, clientId: CLIENT, pinned: true });
      await dispatch.claims.claim({ tokenId: 1, phoneId: limited });
      await dispatch.claims.release({ tokenId: 1, id: first.id });

      await expect(dispatch.claims.claim({ tokenId: 1, phoneId: limited })).resolves.toMatchObject({ claimed: true, task: { id: first.id } });
      await expect(dispatch.claims.claim({ tokenId: 1, phoneId: limited })).resolves.toMatchObject({ claimed: false });
    });

    it('take a limit of 0 as nothing at all, from the first claim of the day', async () => {
      const stopped = await ownPhone('stopped');
      const spare = await ownPhone('spare');
      await dispatch.phones.setLimits({ phoneId: stopped, kind: 'own', dailyLimit: 0 });
      await insertTask(dispatch.db, { phoneId: stopped, clientId: CLIENT, pinned: true });

      await expect(dispatch.claims.claim({ tokenId: 1, phoneId: stopped })).resolves.toMatchObject({ claimed: false });
      const routed = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT }));
      expect(routed.task.phoneId).toBe(spare);
    });

    it('refuses bad values', async () => {
      const phone = await ownPhone('phone');
      await expect(dispatch.phones.setLimits({ phoneId: phone, kind: 'own', timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(dispatch.phones.setLimits({ phoneId: phone, kind: 'own', dailyLimit: 5, clientId: CLIENT + 1 })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('liveness', () => {
    it('counts a phone paired a moment ago as online, silent after the window, back with a poll, and disabled whatever its contact', async () => {
      const phone = await ownPhone('fresh');
      const state = async () => (await dispatch.phones.get({ phoneId: phone })).state;

      expect(await state()).toBe('online');
      await silence(phone);
      expect(await state()).toBe('silent');
      await dispatch.claims.claim({ tokenId: 1, phoneId: phone });
      expect(await state()).toBe('online');
      await silence(phone);
      await dispatch.health.record({ phoneId: phone, batteryPercent: 50 });
      expect(await state()).toBe('online');
      await dispatch.phones.setActive({ phoneId: phone, kind: 'own', active: false });
      expect(await state()).toBe('disabled');
    });

    it('tells the owner once when a phone goes silent and once when it is back, whichever instances watch', async () => {
      await listenToEverything();
      const phone = await ownPhone('phone');
      await insertTask(dispatch.db, { phoneId: phone, clientId: CLIENT, pinned: true });
      await silence(phone);

      await Promise.all([dispatch.phoneWatch.watchOnce(), twin.phoneWatch.watchOnce()]);
      await dispatch.phoneWatch.watchOnce();
      const [silent] = await dispatch.db.webhookDelivery.findMany({ where: { type: 'phone.silent' } });
      expect(JSON.parse(silent!.body!)).toMatchObject({ type: 'phone.silent', data: { id: phone, state: 'silent', waiting_tasks: 1 } });
      await dispatch.claims.claim({ tokenId: 1, phoneId: phone });
      await Promise.all([dispatch.phoneWatch.watchOnce(), twin.phoneWatch.watchOnce()]);

      expect(await dispatch.db.webhookDelivery.count({ where: { type: 'phone.silent' } })).toBe(1);
      const online = await dispatch.db.webhookDelivery.findMany({ where: { type: 'phone.online' } });
      expect(online.map((delivery) => JSON.parse(delivery.body!).data)).toEqual([expect.objectContaining({ id: phone, state: 'online' })]);
    });
  });

  it('never hands a task to two phones nor gives it two outcomes while failover races claims, reports and cancels (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('claim-quiet', 'claim-alive', 'report', 'retry', 'cancel', 'sweep', 'twin-sweep'), { minLength: 4, maxLength: 14 }),
        async (operations) => {
          await truncateDispatch(dispatch.db);
          const quiet = await ownPhone('quiet');
          const alive = await ownPhone('alive');
          const tasks = await Promise.all(Array.from({ length: 4 }, () => insertTask(dispatch.db, { phoneId: quiet, clientId: CLIENT })));
          await silence(quiet);
          const claimedBy = new Map<number, number>();
          await Promise.all(
            operations.map(async (operation, i) => {
              const task = tasks[i % tasks.length]!;
              switch (operation) {
                case 'claim-quiet':
                case 'claim-alive': {
                  const phoneId = operation === 'claim-quiet' ? quiet : alive;
                  const claim = await dispatch.claims.claim({ tokenId: phoneId, phoneId });
                  if (claim.claimed) {
                    expect(claimedBy.has(claim.task.id)).toBe(false);
                    claimedBy.set(claim.task.id, phoneId);
                    expect(claim.task.phoneId).toBe(phoneId);
                  }
                  return;
                }
                case 'report':
                case 'retry':
                  for (const phoneId of [quiet, alive]) {
                    await dispatch.reports
                      .report({ tokenId: phoneId, id: task.id, status: operation === 'retry' ? 'failed' : 'sent', retry: operation === 'retry' || undefined })
                      .catch((error: { code?: string }) => expect(['not_found', 'conflict']).toContain(error.code));
                  }
                  return;
                case 'cancel':
                  await dispatch.cancel.cancel({ clientId: CLIENT, id: task.id }).catch((error: { code?: string }) => expect(error.code).toBe('conflict'));
                  return;
                case 'sweep':
                  await dispatch.failover.sweepOnce();
                  return;
                case 'twin-sweep':
                  await twin.failover.sweepOnce();
                  return;
              }
            }),
          );
          for (const task of tasks) {
            const row = await stored(task.id);
            // A task still held is held by a token of the phone it is on.
            if (row.status === 'claimed') expect(row.claimedByTokenId).toBe(row.phoneId);
            if (row.phoneId !== quiet) expect(row.firstPhoneId).toBe(quiet);
          }
          // One outcome each: at most one refund per task, and only for a failed one.
          const refunds = await dispatch.db.outboxMessage.findMany({ where: { pattern: { contains: 'refund' } } });
          const refunded = refunds.map((message) => (message.payload as { taskKey: string }).taskKey);
          expect(new Set(refunded).size).toBe(refunded.length);
          for (const task of tasks) {
            if (refunded.includes(task.taskKey)) expect((await stored(task.id)).status).toBe('failed');
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
