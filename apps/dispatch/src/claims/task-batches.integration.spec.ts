import fc from 'fast-check';
import { Patterns, type ClaimedTask, type ItemOutcome, type TaskReported } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask, insertTasks, secondsFromNow, truncateDispatch } from '../testing/task-rows.js';
import { TaskClaimsService } from './task-claims.service.js';

const CLIENT = 7;
const HOLDER = 41;
const OTHER = 42;

/** Claims and reports in batches (`pending-tasks?limit=N`, `task-statuses`), raced across two dispatch instances on one database. */
describe(`${TaskClaimsService.name} in batches on Postgres`, () => {
  let database: TestDatabase;
  let profileA: DispatchUnderTest;
  let twinA: DispatchUnderTest;
  let profileB: DispatchUnderTest;
  let twinB: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    [profileA, twinA, profileB, twinB] = await Promise.all([
      dispatchUnderTest(database.url, 'A'),
      dispatchUnderTest(database.url, 'A'),
      dispatchUnderTest(database.url, 'B'),
      dispatchUnderTest(database.url, 'B'),
    ]);
  });

  afterAll(async () => {
    await Promise.all([profileA, twinA, profileB, twinB].map((sut) => sut?.close()));
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(profileA.db);
  });

  const ownPhone = async (name = 'pixel') => (await profileA.phones.register({ clientId: CLIENT, name, phoneLimit: 10 })).phone.id;
  const gateway = async (name: string) => (await profileB.phones.createGateway({ name, url: `http://${name}.local` })).id;
  const dailyLimit = (phoneId: number, limit: number) => profileA.db.$executeRaw`UPDATE "dispatch"."phones" SET daily_limit = ${limit} WHERE id = ${phoneId}`;
  const stored = (id: number) => profileA.db.task.findUniqueOrThrow({ where: { id } });
  const refunds = async () => (await profileA.db.outboxMessage.findMany({ where: { pattern: Patterns.billing.refund } })).map((row) => (row.payload as { taskKey: string }).taskKey);
  const ids = (tasks: { id: number }[]) => tasks.map((task) => task.id);

  /** Claims with `claim` until nothing is left, as a worker draining its queue does. */
  async function drain(claim: () => Promise<ClaimedTask[]>): Promise<number[]> {
    const claimed: number[] = [];
    for (;;) {
      const tasks = await claim();
      if (tasks.length === 0) return claimed;
      claimed.push(...ids(tasks));
    }
  }

  const single = (sut: DispatchUnderTest, tokenId: number, phoneId?: number) => async () => {
    const claim = await sut.claims.claim({ tokenId, phoneId });
    return claim.claimed ? [claim.task] : [];
  };
  const batch = (sut: DispatchUnderTest, tokenId: number, limit: number, phoneId?: number) => async () => (await sut.claims.claimMany({ tokenId, phoneId, limit })).tasks;

  describe('a batched claim', () => {
    it('hands over up to the limit, oldest scheduled first, each task exactly as a single claim does', async () => {
      const phone = await ownPhone();
      const tasks = await insertTasks(profileA.db, 5, (i) => ({ phoneId: phone, clientId: CLIENT, scheduledAt: secondsFromNow(-100 + (4 - i) * 10) }));

      const { tasks: claimed, nextDueAt } = await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 3 });

      // Inserted newest scheduled first: the last three inserted are the oldest.
      expect(ids(claimed)).toEqual([tasks[4]!.id, tasks[3]!.id, tasks[2]!.id]);
      expect(nextDueAt).toBeNull();
      const single = await profileA.claims.claim({ tokenId: HOLDER, phoneId: phone });
      expect(single).toMatchObject({ claimed: true, task: { id: tasks[1]!.id } });
      const shapes = [...claimed, single.claimed ? single.task : undefined].map((task) => Object.keys(task!).sort());
      expect(new Set(shapes.map((shape) => shape.join()))).toEqual(new Set([shapes[0]!.join()]));
      for (const task of claimed) {
        expect(task).toMatchObject({ phoneId: phone, clientId: CLIENT, attempt: 1, gatewayUrl: null, perMinute: null });
        expect(await stored(task.id)).toMatchObject({ status: 'claimed', attempts: 1, claimedByTokenId: HOLDER });
        expect(Date.parse(task.claimExpiresAt)).toBeGreaterThan(Date.now());
      }
      expect((await stored(tasks[0]!.id)).status).toBe('pending');
    });

    it('answers nothing and when the next task is due when none is due yet, and keeps to expiry and back-off', async () => {
      const phone = await ownPhone();
      const later = await insertTask(profileA.db, { phoneId: phone, scheduledAt: secondsFromNow(60) });
      const expired = await insertTask(profileA.db, { phoneId: phone });
      await profileA.db.task.update({ where: { id: expired.id }, data: { expiresAt: secondsFromNow(-1) } });
      const backingOff = await insertTask(profileA.db, { phoneId: phone });
      await profileA.db.task.update({ where: { id: backingOff.id }, data: { retryAfter: secondsFromNow(30) } });

      const answer = await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 10 });

      expect(answer.tasks).toEqual([]);
      expect(answer.nextDueAt).toBe(later.scheduledAt.toISOString());
    });

    it('keeps a claim to the task’s expiry, as a single claim does', async () => {
      const phone = await ownPhone();
      const soon = await insertTask(profileA.db, { phoneId: phone });
      const expiresAt = secondsFromNow(20);
      await profileA.db.task.update({ where: { id: soon.id }, data: { expiresAt } });

      const [task] = (await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 5 })).tasks;

      expect(Date.parse(task!.claimExpiresAt)).toBe(expiresAt.getTime());
    });

    it('refuses what a single claim refuses: a disabled phone, a token of no phone in Profile A, no active gateway in Profile B', async () => {
      const phone = await ownPhone();
      await profileA.phones.setActive({ phoneId: phone, kind: 'own', active: false });
      await expect(profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 5 })).rejects.toMatchObject({ code: 'phone_disabled' });
      await expect(profileA.claims.claimMany({ tokenId: HOLDER, limit: 5 })).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(profileB.claims.claimMany({ tokenId: HOLDER, limit: 5 })).rejects.toMatchObject({ code: 'no_active_gateway' });
    });

    it('Profile B: an unbound token takes any active gateway’s tasks, a bound one only its gateway’s', async () => {
      const [g1, g2] = [await gateway('g1'), await gateway('g2')];
      const off = await gateway('off');
      await profileB.phones.setActive({ phoneId: off, kind: 'gateway', active: false });
      await insertTasks(profileB.db, 6, (i) => ({ phoneId: [g1, g2, off][i % 3]!, clientId: CLIENT }));

      const bound = await profileB.claims.claimMany({ tokenId: HOLDER, phoneId: g2, limit: 10 });
      const unbound = await profileB.claims.claimMany({ tokenId: OTHER, limit: 10 });

      expect(bound.tasks.map((task) => task.phoneId)).toEqual([g2, g2]);
      expect(unbound.tasks.map((task) => task.phoneId)).toEqual([g1, g1]);
      expect(unbound.tasks.map((task) => task.gatewayUrl)).toEqual(['http://g1.local', 'http://g1.local']);
    });
  });

  describe('batched claims racing single claims across two instances', () => {
    it('give every task to exactly one holder (Profile B, unbound and bound tokens)', async () => {
      const gateways = [await gateway('g1'), await gateway('g2'), await gateway('g3')];
      const tasks = await insertTasks(profileB.db, 90, (i) => ({ phoneId: gateways[i % 3]!, clientId: 1 + (i % 4) }));
      const pollers = [
        batch(profileB, 100, 7),
        batch(twinB, 101, 13),
        batch(profileB, 102, 1),
        single(twinB, 103),
        single(profileB, 104),
        batch(twinB, 105, 20, gateways[0]),
        single(profileB, 106, gateways[1]),
      ];

      const perPoller = await Promise.all(pollers.map(drain));

      expect(perPoller.flat().sort((a, b) => a - b)).toEqual(ids(tasks));
      const rows = await profileB.db.task.findMany();
      expect(rows.every((row) => row.status === 'claimed' && row.attempts === 1)).toBe(true);
      const holderOf = new Map(perPoller.flatMap((claimed, i) => claimed.map((id) => [id, 100 + i] as const)));
      expect(rows.every((row) => row.claimedByTokenId === holderOf.get(row.id))).toBe(true);
    });

    it('never hand a phone more than its daily limit, and count exactly what they handed (Profile A)', async () => {
      const phone = await ownPhone();
      await dailyLimit(phone, 17);
      await insertTasks(profileA.db, 40, () => ({ phoneId: phone, clientId: CLIENT }));

      const perPoller = await Promise.all([batch(profileA, 1, 5, phone), batch(twinA, 2, 9, phone), single(profileA, 3, phone), single(twinA, 4, phone), batch(twinA, 5, 100, phone)].map(drain));

      expect(perPoller.flat()).toHaveLength(17);
      expect(new Set(perPoller.flat()).size).toBe(17);
      expect((await profileA.db.phone.findUniqueOrThrow({ where: { id: phone } })).daySends).toBe(17);
      expect(await profileA.db.task.count({ where: { status: 'pending' } })).toBe(23);
    });

    it('hand a phone near its daily limit its oldest tasks, whichever claim reaches it first (Profile A)', async () => {
      for (let round = 0; round < 10; round++) {
        await truncateDispatch(profileA.db);
        const phone = await ownPhone();
        await dailyLimit(phone, 3);
        const tasks = await insertTasks(profileA.db, 5, () => ({ phoneId: phone, clientId: CLIENT }));

        const claimed = (await Promise.all([batch(profileA, 1, 2, phone)(), batch(twinA, 2, 100, phone)()])).flat();

        expect(ids(claimed).sort((a, b) => a - b)).toEqual(ids(tasks).slice(0, 3));
      }
    });

    it('never hand any gateway more than its daily limit when one batch spans many gateways (Profile B, property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }), { minLength: 2, maxLength: 4 }),
          fc.array(fc.record({ limit: fc.integer({ min: 1, max: 12 }), twin: fc.boolean(), bound: fc.boolean() }), { minLength: 2, maxLength: 6 }),
          async (limits, pollers) => {
            await truncateDispatch(profileB.db);
            const gateways: number[] = [];
            for (const [i, limit] of limits.entries()) {
              const id = await gateway(`g${i}`);
              if (limit !== null) await dailyLimit(id, limit);
              gateways.push(id);
            }
            await insertTasks(profileB.db, 30, (i) => ({ phoneId: gateways[i % gateways.length]!, clientId: CLIENT }));

            const claims = pollers.map((poller, i) => {
              const sut = poller.twin ? twinB : profileB;
              const phoneId = poller.bound ? gateways[i % gateways.length] : undefined;
              return poller.limit === 1 && i % 2 === 0 ? single(sut, 200 + i, phoneId) : batch(sut, 200 + i, poller.limit, phoneId);
            });
            const raced = await Promise.all(claims.map(drain));
            // A claim whose tasks all belonged to a gateway another claim filled meanwhile answers none while
            // other gateways still have some, as a single claim can: its worker polls again, as each one does here.
            const after: number[][] = [];
            for (const claim of claims) after.push(await drain(claim));

            const claimed = [...raced, ...after].flat();
            expect(new Set(claimed).size).toBe(claimed.length);
            for (const [i, id] of gateways.entries()) {
              const tasksOf = Math.ceil((30 - i) / gateways.length);
              const handed = await profileB.db.task.count({ where: { phoneId: id, status: 'claimed' } });
              const { daySends } = await profileB.db.phone.findUniqueOrThrow({ where: { id } });
              const limit = limits[i];
              const reachable = pollers.some((poller, p) => !poller.bound || p % gateways.length === i);
              expect(handed).toBe(reachable ? Math.min(tasksOf, limit ?? tasksOf) : 0);
              if (limit !== null) expect(daySends).toBe(handed);
            }
          },
        ),
        { numRuns: 15 },
      );
    });
  });

  describe('batched reports', () => {
    async function claimed(count: number, tokenId = HOLDER): Promise<ClaimedTask[]> {
      const phone = await ownPhone(`p${tokenId}-${count}`);
      await insertTasks(profileA.db, count, () => ({ phoneId: phone, clientId: CLIENT }));
      const { tasks } = await profileA.claims.claimMany({ tokenId, phoneId: phone, limit: count });
      expect(tasks).toHaveLength(count);
      return tasks;
    }
    const valuesOf = (results: ItemOutcome<TaskReported>[]) => results.map((result) => (result.ok ? result.value : result.error.error));

    it('answers each report in order as task-status would, one failing alone', async () => {
      const [sent, failed, delivered, retried, conflicting] = await claimed(5);
      const [notMine] = await claimed(1, OTHER);
      await profileA.reports.report({ tokenId: HOLDER, id: conflicting!.id, status: 'sent' });
      const keyOfFailed = (await stored(failed!.id)).taskKey;

      const { results } = await profileA.reports.reportMany({
        tokenId: HOLDER,
        reports: [
          { id: sent!.id, status: 'sent' },
          { id: notMine!.id, status: 'sent' },
          { id: failed!.id, status: 'failed', error: 'no signal' },
          { id: delivered!.id, status: 'delivered' },
          { id: conflicting!.id, status: 'failed' },
          { id: retried!.id, status: 'failed', retry: true },
          { id: sent!.id + 10_000, status: 'sent' },
          { id: 2 ** 40, status: 'failed' },
          { id: sent!.id, status: 'sent', retry: true } as never,
        ],
      });

      expect(valuesOf(results)).toEqual([
        { id: sent!.id, status: 'sent' },
        'not_found',
        { id: failed!.id, status: 'failed' },
        { id: delivered!.id, status: 'sent' },
        'conflict',
        { id: retried!.id, status: 'pending' },
        'not_found',
        'not_found',
        'invalid_request',
      ]);
      expect(await stored(sent!.id)).toMatchObject({ status: 'sent', claimExpiresAt: null });
      expect(await stored(failed!.id)).toMatchObject({ status: 'failed', error: 'no signal' });
      expect(await stored(delivered!.id)).toMatchObject({ status: 'sent', deliveredAt: expect.any(Date) });
      expect(await stored(retried!.id)).toMatchObject({ status: 'pending', claimedByTokenId: null });
      expect((await stored(notMine!.id)).status).toBe('claimed');
      expect(await refunds()).toEqual([keyOfFailed]);
    });

    it('applies two reports of one task in their order, as two task-status requests would', async () => {
      const [first, second] = await claimed(2);

      const { results } = await profileA.reports.reportMany({
        tokenId: HOLDER,
        reports: [
          { id: first!.id, status: 'failed' },
          { id: first!.id, status: 'sent' },
          { id: second!.id, status: 'sent' },
          { id: second!.id, status: 'sent' },
          { id: second!.id, status: 'delivered' },
        ],
      });

      expect(valuesOf(results)).toEqual(['failed', 'conflict', 'sent', 'sent', 'sent'].map((status, i) => (status === 'conflict' ? status : { id: i < 2 ? first!.id : second!.id, status })));
      expect(await stored(first!.id)).toMatchObject({ status: 'failed', sentAt: null });
      expect(await stored(second!.id)).toMatchObject({ status: 'sent', deliveredAt: expect.any(Date) });
    });

    it('refunds every failed task exactly once, however often the batch is repeated on either instance', async () => {
      const tasks = await claimed(8);
      const reports = tasks.map((task, i) => ({ id: task.id, status: i % 2 ? ('failed' as const) : ('sent' as const), error: 'x' }));

      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? twinA : profileA).reports.reportMany({ tokenId: HOLDER, reports })));

      const expected = reports.map((report) => ({ id: report.id, status: report.status }));
      for (const answer of answers) expect(valuesOf(answer.results)).toEqual(expected);
      const failedKeys = await Promise.all(tasks.filter((_, i) => i % 2).map(async (task) => (await stored(task.id)).taskKey));
      expect((await refunds()).sort()).toEqual(failedKeys.sort());
    });

    describe('released', () => {
      const release = (id: number) => ({ id, status: 'released' as const });
      const daySends = async (phoneId: number) => (await profileA.db.phone.findUniqueOrThrow({ where: { id: phoneId } })).daySends;
      /** The columns a claim and its release change. */
      const claimOf = async (id: number) => {
        const { status, attempts, claimedByTokenId, claimExpiresAt } = await stored(id);
        return { status, attempts, claimedByTokenId, claimExpiresAt };
      };

      it('gives back the untried tasks of a batch, attempts and all, due again at once for another token', async () => {
        const phone = await ownPhone();
        const tasks = await insertTasks(profileA.db, 3, () => ({ phoneId: phone, clientId: CLIENT }));
        // Handed out once before, and returned by its lease.
        await profileA.db.task.update({ where: { id: tasks[1]!.id }, data: { attempts: 1 } });
        const { tasks: batchOf3 } = await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 3 });
        expect(batchOf3.map((task) => [task.id, task.attempt])).toEqual([[tasks[0]!.id, 1], [tasks[1]!.id, 2], [tasks[2]!.id, 1]]);
        const [sent, untried, untriedToo] = ids(batchOf3) as [number, number, number];

        const { results } = await profileA.reports.reportMany({ tokenId: HOLDER, phoneId: phone, reports: [release(untried), { id: sent, status: 'sent' }, release(untriedToo)] });

        expect(valuesOf(results)).toEqual([
          { id: untried, status: 'pending' },
          { id: sent, status: 'sent' },
          { id: untriedToo, status: 'pending' },
        ]);
        expect(await claimOf(untried)).toEqual({ status: 'pending', attempts: 1, claimedByTokenId: null, claimExpiresAt: null });
        expect(await claimOf(untriedToo)).toEqual({ status: 'pending', attempts: 0, claimedByTokenId: null, claimExpiresAt: null });
        expect((await stored(sent)).status).toBe('sent');
        const { tasks: again } = await profileA.claims.claimMany({ tokenId: OTHER, phoneId: phone, limit: 3 });
        expect(again.map((task) => [task.id, task.attempt])).toEqual([[untried, 2], [untriedToo, 1]]);
        expect(await stored(untried)).toMatchObject({ status: 'claimed', claimedByTokenId: OTHER });
      });

      it('gives back the phone’s count towards its daily limit, so the released tasks fit in it again', async () => {
        const phone = await ownPhone();
        await dailyLimit(phone, 3);
        const tasks = await insertTasks(profileA.db, 4, () => ({ phoneId: phone, clientId: CLIENT }));
        const [sent, untried, untriedToo] = ids((await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 3 })).tasks) as [number, number, number];
        expect(await daySends(phone)).toBe(3);
        expect((await profileA.claims.claimMany({ tokenId: OTHER, phoneId: phone, limit: 3 })).tasks).toEqual([]);

        await profileA.reports.reportMany({ tokenId: HOLDER, reports: [{ id: sent, status: 'sent' }, release(untried), release(untriedToo)] });

        expect(await daySends(phone)).toBe(1);
        expect(ids((await profileA.claims.claimMany({ tokenId: OTHER, phoneId: phone, limit: 3 })).tasks)).toEqual([untried, untriedToo]);
        expect(await daySends(phone)).toBe(3);
        expect((await stored(tasks[3]!.id)).status).toBe('pending');
      });

      it('refuses as not_found a task the token holds no claim on, changing nothing', async () => {
        const phone = await ownPhone();
        await dailyLimit(phone, 10);
        await insertTasks(profileA.db, 2, () => ({ phoneId: phone, clientId: CLIENT }));
        const [mine] = ids((await profileA.claims.claimMany({ tokenId: HOLDER, phoneId: phone, limit: 1 })).tasks);
        const [notMine] = ids((await profileA.claims.claimMany({ tokenId: OTHER, phoneId: phone, limit: 1 })).tasks);
        const before = await claimOf(notMine!);

        const { results } = await profileA.reports.reportMany({ tokenId: HOLDER, reports: [release(notMine!), release(mine! + 10_000), release(2 ** 40)] });

        expect(valuesOf(results)).toEqual(['not_found', 'not_found', 'not_found']);
        expect(results[0]).toMatchObject({ ok: false, error: { error: 'not_found', detail: 'task not found' } });
        expect(await claimOf(notMine!)).toEqual(before);
        expect(before).toMatchObject({ status: 'claimed', attempts: 1, claimedByTokenId: OTHER });
        expect(await daySends(phone)).toBe(2);
      });

      it('refuses as not_found a task already sent or failed, which stays as it is', async () => {
        const [sent, failed, releasedTwice] = await claimed(3);
        await profileA.reports.reportMany({ tokenId: HOLDER, reports: [{ id: sent!.id, status: 'sent' }, { id: failed!.id, status: 'failed', error: 'no signal' }] });

        const { results } = await profileA.reports.reportMany({
          tokenId: HOLDER,
          reports: [release(sent!.id), release(failed!.id), release(releasedTwice!.id), release(releasedTwice!.id)],
        });

        expect(valuesOf(results)).toEqual(['not_found', 'not_found', { id: releasedTwice!.id, status: 'pending' }, 'not_found']);
        expect(await stored(sent!.id)).toMatchObject({ status: 'sent', attempts: 1 });
        expect(await stored(failed!.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'no signal' });
        expect(await claimOf(releasedTwice!.id)).toEqual({ status: 'pending', attempts: 0, claimedByTokenId: null, claimExpiresAt: null });
      });

      it('applies a release and a report of the same task in their order', async () => {
        const [sentFirst, releasedFirst] = await claimed(2);

        const { results } = await profileA.reports.reportMany({
          tokenId: HOLDER,
          reports: [{ id: sentFirst!.id, status: 'sent' }, release(sentFirst!.id), release(releasedFirst!.id), { id: releasedFirst!.id, status: 'sent' }],
        });

        expect(valuesOf(results)).toEqual([{ id: sentFirst!.id, status: 'sent' }, 'not_found', { id: releasedFirst!.id, status: 'pending' }, 'not_found']);
        expect((await stored(sentFirst!.id)).status).toBe('sent');
        expect(await claimOf(releasedFirst!.id)).toMatchObject({ status: 'pending', attempts: 0, claimedByTokenId: null });
      });

      it('gives the attempt back after the lease returned the task, unless someone claimed it since', async () => {
        const [reclaimed, lapsed] = await claimed(2);
        await profileA.db.task.updateMany({ where: { id: { in: [reclaimed!.id, lapsed!.id] } }, data: { claimExpiresAt: secondsFromNow(-1) } });
        await expect(profileA.leases.sweepOnce()).resolves.toEqual({ returned: 2, failed: 0 });
        // The lease keeps the attempt counted and the last holder recorded.
        expect(await claimOf(lapsed!.id)).toEqual({ status: 'pending', attempts: 1, claimedByTokenId: HOLDER, claimExpiresAt: null });
        const [taken] = (await profileA.claims.claimMany({ tokenId: OTHER, phoneId: reclaimed!.phoneId, limit: 1 })).tasks;
        expect(taken).toMatchObject({ id: reclaimed!.id, attempt: 2 });

        const { results } = await profileA.reports.reportMany({ tokenId: HOLDER, reports: [release(lapsed!.id), release(reclaimed!.id)] });

        expect(valuesOf(results)).toEqual([{ id: lapsed!.id, status: 'pending' }, 'not_found']);
        expect(await claimOf(lapsed!.id)).toEqual({ status: 'pending', attempts: 0, claimedByTokenId: null, claimExpiresAt: null });
        expect(await claimOf(reclaimed!.id)).toMatchObject({ status: 'claimed', attempts: 2, claimedByTokenId: OTHER });
        expect((await profileA.claims.claimMany({ tokenId: OTHER, phoneId: lapsed!.phoneId, limit: 1 })).tasks).toMatchObject([{ id: lapsed!.id, attempt: 1 }]);
      });

      it('refuses error or retry with it in place, changing nothing', async () => {
        const [task] = await claimed(1);

        const { results } = await profileA.reports.reportMany({
          tokenId: HOLDER,
          reports: [{ ...release(task!.id), error: 'radio off' }, { ...release(task!.id), retry: true }],
        });

        expect(valuesOf(results)).toEqual(['invalid_request', 'invalid_request']);
        expect(await claimOf(task!.id)).toMatchObject({ status: 'claimed', attempts: 1, claimedByTokenId: HOLDER });
      });
    });

    it('queues one task.sent event per task sent together, as single reports do', async () => {
      await profileA.webhooks.create({ clientId: CLIENT, url: 'https://hooks.example.com/smsq', events: ['task.sent', 'task.delivered'] });
      const tasks = await claimed(4);

      await profileA.reports.reportMany({ tokenId: HOLDER, reports: tasks.map((task, i) => ({ id: task.id, status: i === 3 ? ('delivered' as const) : ('sent' as const) })) });
      await profileA.reports.reportMany({ tokenId: HOLDER, reports: tasks.map((task) => ({ id: task.id, status: 'sent' as const })) });

      const events = await profileA.db.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
      expect(events.filter((event) => event.type === 'task.sent').map((event) => event.taskId).sort()).toEqual(ids(tasks).sort());
      expect(events.filter((event) => event.type === 'task.delivered').map((event) => event.taskId)).toEqual([tasks[3]!.id]);
    });
  });
});
