import type { ClaimedTask, TaskClaim } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask, insertTasks, secondsFromNow, truncateDispatch } from '../testing/task-rows.js';
import { TaskClaimsService } from './task-claims.service.js';

const CLAIM_TIMEOUT_S = 120;

function claimedTask(claim: TaskClaim): ClaimedTask {
  if (!claim.claimed) throw new Error(`expected a claimed task, got ${JSON.stringify(claim)}`);
  return claim.task;
}

describe(`${TaskClaimsService.name} on Postgres`, () => {
  let database: TestDatabase;
  let profileA: DispatchUnderTest;
  let profileB: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    profileA = await dispatchUnderTest(database.url, 'A', { claimTimeoutS: CLAIM_TIMEOUT_S });
    profileB = await dispatchUnderTest(database.url, 'B', { claimTimeoutS: CLAIM_TIMEOUT_S });
  });

  afterAll(async () => {
    await profileA?.close();
    await profileB?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(profileA.db);
  });

  async function ownPhone(clientId: number, url?: string): Promise<number> {
    return (await profileA.phones.register({ clientId, name: 'pixel', phoneLimit: 10, url })).phone.id;
  }

  async function gateway(name: string, active = true): Promise<number> {
    const { id } = await profileB.phones.createGateway({ name, url: `http://${name}.local` });
    if (!active) await profileB.phones.setActive({ phoneId: id, kind: 'gateway', active: false });
    return id;
  }

  /** Claims until nothing is due, as a worker does. */
  async function drain(sut: DispatchUnderTest, tokenId: number, phoneId?: number): Promise<number[]> {
    const claimed: number[] = [];
    for (;;) {
      const claim = await sut.claims.claim({ tokenId, phoneId });
      if (!claim.claimed) return claimed;
      claimed.push(claim.task.id);
    }
  }

  describe('concurrent pollers', () => {
    it('give every due task to exactly one of ten workers polling at once', async () => {
      const gateways = [await gateway('g1'), await gateway('g2')];
      const tasks = await insertTasks(profileB.db, 50, (i) => ({ phoneId: gateways[i % 2]!, clientId: 1 + (i % 5) }));

      const perPoller = await Promise.all(Array.from({ length: 10 }, (_, i) => drain(profileB, 100 + i)));

      const claimed = perPoller.flat();
      expect(claimed).toHaveLength(50);
      expect(new Set(claimed)).toEqual(new Set(tasks.map((task) => task.id)));
      const stored = await profileB.db.task.findMany();
      expect(stored.every((task) => task.status === 'claimed' && task.attempts === 1)).toBe(true);
      // Each task is held by the poller that was given it.
      const holderOf = new Map(perPoller.flatMap((ids, i) => ids.map((id) => [id, 100 + i] as const)));
      expect(stored.every((task) => task.claimedByTokenId === holderOf.get(task.id))).toBe(true);
    });

    it('give the tasks of one phone to its pollers once each', async () => {
      const phone = await ownPhone(1);
      await insertTasks(profileA.db, 30, () => ({ phoneId: phone }));

      const perPoller = await Promise.all(Array.from({ length: 5 }, (_, i) => drain(profileA, 200 + i, phone)));

      expect(perPoller.flat()).toHaveLength(30);
      expect(new Set(perPoller.flat()).size).toBe(30);
    });

    it('never wait for a task another transaction holds: the next one is claimed at once', async () => {
      const phone = await ownPhone(1);
      const [first, second] = await insertTasks(profileA.db, 2, (i) => ({ phoneId: phone, scheduledAt: secondsFromNow(-60 + i) }));
      let releaseHolder: () => void = () => undefined;
      const holderDone = new Promise<void>((resolve) => (releaseHolder = resolve));
      let holding: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = profileA.db.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT id FROM "dispatch"."tasks" WHERE id = ${first!.id} FOR UPDATE`;
          holding();
          await holderDone;
        },
        { timeout: 30_000 },
      );
      await held;

      const outcome = await Promise.race([
        profileA.claims.claim({ tokenId: 1, phoneId: phone }),
        new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 3_000)),
      ]);
      releaseHolder();
      await holder;

      expect(outcome === 'blocked' ? outcome : claimedTask(outcome).id).toBe(second!.id);
    });
  });

  describe('what a claim answers', () => {
    it('hands over the task with its gateway URL, local time, attempt, lease and its phone’s pace', async () => {
      const phone = await ownPhone(4, 'http://10.0.0.7:8080');
      await profileA.phones.setLimits({ phoneId: phone, kind: 'own', perMinute: 12 });
      const task = await insertTask(profileA.db, { phoneId: phone, clientId: 4, recipient: '+381641112223' });
      const before = Date.now();

      const claimed = claimedTask(await profileA.claims.claim({ tokenId: 9, phoneId: phone }));

      expect(claimed).toEqual({
        id: task.id,
        recipient: '+381641112223',
        message: 'hello',
        phoneId: phone,
        clientId: 4,
        scheduledAt: task.scheduledLocal,
        gatewayUrl: 'http://10.0.0.7:8080',
        attempt: 1,
        claimExpiresAt: expect.any(String),
        perMinute: 12,
        jitter: null,
        sim: null,
        parts: 1,
        encrypted: false,
      });
      const expiresIn = Date.parse(claimed.claimExpiresAt) - before;
      expect(expiresIn).toBeGreaterThan((CLAIM_TIMEOUT_S - 5) * 1_000);
      expect(expiresIn).toBeLessThan((CLAIM_TIMEOUT_S + 5) * 1_000);
      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: task.id } })).resolves.toMatchObject({
        status: 'claimed',
        attempts: 1,
        claimedByTokenId: 9,
      });
    });

    it('answers a null gateway URL for a phone that registered none', async () => {
      const phone = await ownPhone(4);
      await insertTask(profileA.db, { phoneId: phone });

      expect(claimedTask(await profileA.claims.claim({ tokenId: 9, phoneId: phone })).gatewayUrl).toBeNull();
    });

    it('takes due tasks oldest scheduled first, then by id', async () => {
      const phone = await ownPhone(1);
      const sameTime = secondsFromNow(-30);
      const late = await insertTask(profileA.db, { phoneId: phone, scheduledAt: secondsFromNow(-10) });
      const tieA = await insertTask(profileA.db, { phoneId: phone, scheduledAt: sameTime });
      const tieB = await insertTask(profileA.db, { phoneId: phone, scheduledAt: sameTime });
      const early = await insertTask(profileA.db, { phoneId: phone, scheduledAt: secondsFromNow(-300) });

      await expect(drain(profileA, 1, phone)).resolves.toEqual([early.id, tieA.id, tieB.id, late.id]);
    });

    it('records when the phone last polled, at most once in ten seconds', async () => {
      const phone = await ownPhone(1);
      const seenAt = () => profileA.db.phone.findUniqueOrThrow({ where: { id: phone } }).then((row) => row.lastSeenAt);

      await profileA.claims.claim({ tokenId: 1, phoneId: phone });
      const first = await seenAt();
      await profileA.claims.claim({ tokenId: 1, phoneId: phone });

      expect(first).not.toBeNull();
      expect(await seenAt()).toEqual(first);
      await profileA.db.phone.update({ where: { id: phone }, data: { lastSeenAt: secondsFromNow(-11) } });
      await profileA.claims.claim({ tokenId: 1, phoneId: phone });
      expect((await seenAt())!.getTime()).toBeGreaterThan(first!.getTime() - 1_000);
    });
  });

  describe('scope', () => {
    it('Profile A: a phone’s token gets only that phone’s tasks', async () => {
      const mine = await ownPhone(1);
      const other = await ownPhone(2);
      const myTasks = await insertTasks(profileA.db, 3, () => ({ phoneId: mine, clientId: 1 }));
      await insertTasks(profileA.db, 3, () => ({ phoneId: other, clientId: 2 }));

      await expect(drain(profileA, 1, mine)).resolves.toEqual(myTasks.map((task) => task.id));
    });

    it('Profile A: refuses a token without a phone, or whose phone does not exist, as unauthorized', async () => {
      await expect(profileA.claims.claim({ tokenId: 1 })).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(profileA.claims.claim({ tokenId: 1, phoneId: 4242 })).rejects.toMatchObject({ code: 'unauthorized' });
      await expect(profileA.claims.claim({ tokenId: 1, phoneId: 2 ** 40 })).rejects.toMatchObject({ code: 'unauthorized' });
    });

    it('answers phone_disabled to the token of a disabled phone, and its tasks stay pending', async () => {
      const phone = await ownPhone(1);
      const task = await insertTask(profileA.db, { phoneId: phone });
      await profileA.phones.setActive({ phoneId: phone, kind: 'own', active: false });

      await expect(profileA.claims.claim({ tokenId: 1, phoneId: phone })).rejects.toMatchObject({ code: 'phone_disabled' });
      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: task.id } })).resolves.toMatchObject({ status: 'pending', attempts: 0 });
    });

    it('Profile B: an unbound token gets any active gateway’s tasks, a bound one only its gateway’s', async () => {
      const first = await gateway('g1');
      const second = await gateway('g2');
      const off = await gateway('off');
      const onFirst = await insertTask(profileB.db, { phoneId: first, scheduledAt: secondsFromNow(-20) });
      const onSecond = await insertTask(profileB.db, { phoneId: second, scheduledAt: secondsFromNow(-10) });
      // Pinned: a task routed by smsq would move off the disabled gateway.
      await insertTask(profileB.db, { phoneId: off, scheduledAt: secondsFromNow(-30), pinned: true });
      await profileB.phones.setActive({ phoneId: off, kind: 'gateway', active: false });

      await expect(drain(profileB, 1, second)).resolves.toEqual([onSecond.id]);
      await expect(drain(profileB, 2)).resolves.toEqual([onFirst.id]);
    });

    it('Profile B: answers no_active_gateway to an unbound token when every gateway is disabled', async () => {
      await gateway('off', false);

      await expect(profileB.claims.claim({ tokenId: 1 })).rejects.toMatchObject({ code: 'no_active_gateway' });
    });

    it('Profile B: answers phone_disabled to the token of a disabled gateway', async () => {
      const off = await gateway('off', false);
      await gateway('on');

      await expect(profileB.claims.claim({ tokenId: 1, phoneId: off })).rejects.toMatchObject({ code: 'phone_disabled' });
    });
  });

  describe('scheduled tasks', () => {
    it('keeps a task invisible until it is due and tells when it will be', async () => {
      const phone = await ownPhone(1);
      const dueAt = secondsFromNow(2);
      const scheduled = await insertTask(profileA.db, { phoneId: phone, scheduledAt: dueAt });
      await insertTask(profileA.db, { phoneId: phone, scheduledAt: secondsFromNow(3_600) });

      await expect(profileA.claims.claim({ tokenId: 1, phoneId: phone })).resolves.toEqual({ claimed: false, nextDueAt: dueAt.toISOString() });

      const claim = await eventuallyClaimed(() => profileA.claims.claim({ tokenId: 1, phoneId: phone }));
      expect(claim.id).toBe(scheduled.id);
      expect(Date.now()).toBeGreaterThanOrEqual(dueAt.getTime() - 50);
    });

    it('answers nextDueAt null when nothing is scheduled, and ignores other phones and disabled gateways', async () => {
      const mine = await ownPhone(1);
      const other = await ownPhone(2);
      await insertTask(profileA.db, { phoneId: other, scheduledAt: secondsFromNow(60) });

      await expect(profileA.claims.claim({ tokenId: 1, phoneId: mine })).resolves.toEqual({ claimed: false, nextDueAt: null });

      const on = await gateway('on');
      const off = await gateway('off');
      const onLater = secondsFromNow(120);
      await insertTask(profileB.db, { phoneId: on, scheduledAt: onLater });
      await insertTask(profileB.db, { phoneId: off, scheduledAt: secondsFromNow(30) });
      await profileB.phones.setActive({ phoneId: off, kind: 'gateway', active: false });
      await expect(profileB.claims.claim({ tokenId: 1 })).resolves.toEqual({ claimed: false, nextDueAt: onLater.toISOString() });
    });
  });

  describe('release', () => {
    it('puts a claim its worker never received back, uncounted, for the next poll', async () => {
      const phone = await ownPhone(1);
      const task = await insertTask(profileA.db, { phoneId: phone });
      const claimed = claimedTask(await profileA.claims.claim({ tokenId: 1, phoneId: phone }));

      await expect(profileA.claims.release({ tokenId: 1, id: claimed.id })).resolves.toEqual({ ok: true });

      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: task.id } })).resolves.toMatchObject({
        status: 'pending',
        attempts: 0,
        claimedByTokenId: null,
        claimExpiresAt: null,
      });
      expect(claimedTask(await profileA.claims.claim({ tokenId: 2, phoneId: phone })).attempt).toBe(1);
    });

    it('gives back the attempt of a task its lease returned to the queue, unless another token claimed it since', async () => {
      const phone = await ownPhone(1);
      const [reclaimed, returned] = await insertTasks(profileA.db, 2, () => ({ phoneId: phone }));
      await profileA.claims.claim({ tokenId: 1, phoneId: phone });
      await profileA.claims.claim({ tokenId: 1, phoneId: phone });
      await profileA.db.task.updateMany({ data: { claimExpiresAt: secondsFromNow(-1) } });
      await expect(profileA.leases.sweepOnce()).resolves.toEqual({ returned: 2, failed: 0 });
      expect(claimedTask(await profileA.claims.claim({ tokenId: 2, phoneId: phone }))).toMatchObject({ id: reclaimed!.id, attempt: 2 });

      await expect(profileA.claims.release({ tokenId: 1, id: reclaimed!.id })).resolves.toEqual({ ok: true });
      await expect(profileA.claims.release({ tokenId: 1, id: returned!.id })).resolves.toEqual({ ok: true });

      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: reclaimed!.id } })).resolves.toMatchObject({ status: 'claimed', attempts: 2, claimedByTokenId: 2 });
      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: returned!.id } })).resolves.toMatchObject({ status: 'pending', attempts: 0, claimedByTokenId: null, claimExpiresAt: null });
    });

    it('leaves alone a claim the token does not hold, and a task already reported', async () => {
      const phone = await ownPhone(1);
      const [heldByTwo, reported] = await insertTasks(profileA.db, 2, () => ({ phoneId: phone }));
      await profileA.claims.claim({ tokenId: 2, phoneId: phone });
      await profileA.claims.claim({ tokenId: 1, phoneId: phone });
      await profileA.reports.report({ tokenId: 1, id: reported!.id, status: 'sent' });

      await expect(profileA.claims.release({ tokenId: 1, id: heldByTwo!.id })).resolves.toEqual({ ok: true });
      await expect(profileA.claims.release({ tokenId: 1, id: reported!.id })).resolves.toEqual({ ok: true });
      await expect(profileA.claims.release({ tokenId: 1, id: 2 ** 40 })).resolves.toEqual({ ok: true });

      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: heldByTwo!.id } })).resolves.toMatchObject({ status: 'claimed', claimedByTokenId: 2 });
      await expect(profileA.db.task.findUniqueOrThrow({ where: { id: reported!.id } })).resolves.toMatchObject({ status: 'sent', attempts: 1 });
    });
  });
});

/** Polls the claim until it hands over a task; the deadline is the test's. */
async function eventuallyClaimed(claim: () => Promise<TaskClaim>, timeoutMs = 10_000): Promise<ClaimedTask> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await claim();
    if (answer.claimed) return answer.task;
    if (Date.now() > deadline) throw new Error('no task became due in time');
    const untilDue = answer.nextDueAt === null ? 100 : Math.max(10, Date.parse(answer.nextDueAt) - Date.now());
    await new Promise((resolve) => setTimeout(resolve, Math.min(untilDue, 200)));
  }
}
