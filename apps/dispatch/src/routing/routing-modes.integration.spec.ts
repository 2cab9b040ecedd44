import fc from 'fast-check';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';

const CLIENT = 7;
const ZONE = 'Europe/Belgrade';
const past = () => new Date(Date.now() - 1_000).toISOString();
const number = (i: number) => `+38164${String(1_000_000 + i).slice(1)}`;

describe('routing modes and recipient caps on Postgres, two dispatch instances', () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** A second dispatch instance on the same database. */
  let twin: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    twin = await dispatchUnderTest(database.url, 'A');
    dispatch.billing.setBalance(CLIENT, 1_000_000);
    twin.billing.setBalance(CLIENT, 1_000_000);
  });

  afterAll(async () => {
    await dispatch?.close();
    await twin?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
  });

  async function ownPhone(name: string): Promise<number> {
    return (await dispatch.phones.register({ clientId: CLIENT, name, phoneLimit: 10 })).phone.id;
  }

  const silence = (phoneId: number) => dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET last_contact_at = now() - interval '1 hour' WHERE id = ${phoneId}`;
  const create = (instance: DispatchUnderTest, recipient: string, overrides = {}) =>
    instance.creation.create(taskCreateCommand({ clientId: CLIENT, recipient, scheduledAt: past(), ...overrides }));
  const setMode = (routingMode: 'first' | 'spread' | 'sticky') => dispatch.rules.update({ clientId: CLIENT, timeZone: ZONE, routingMode });

  /** Each recipient's phones among the tasks not final, and among all. */
  async function phonesByRecipient(): Promise<Map<string, Set<number>>> {
    const tasks = await dispatch.db.task.findMany({ where: { clientId: CLIENT } });
    const byRecipient = new Map<string, Set<number>>();
    for (const task of tasks) byRecipient.set(task.recipient, (byRecipient.get(task.recipient) ?? new Set()).add(task.phoneId));
    return byRecipient;
  }

  it('routes as the specification says when the client set nothing: everything to the first phone', async () => {
    const first = await ownPhone('first');
    await ownPhone('second');
    const tasks = await Promise.all(Array.from({ length: 6 }, (_, i) => create(i % 2 ? twin : dispatch, number(i))));
    expect(tasks.map((created) => created.task.phoneId)).toEqual(Array(6).fill(first));
    await expect(dispatch.rules.get({ clientId: CLIENT, timeZone: ZONE })).resolves.toMatchObject({ routingMode: 'first', stickyDays: 30, sendWindows: [], windowOpen: true });
  });

  it('spread: uses every usable phone, the one with most room left today first, then the least recently used', async () => {
    const [a, b, c] = [await ownPhone('a'), await ownPhone('b'), await ownPhone('c')];
    await setMode('spread');
    const one = await Promise.all(Array.from({ length: 9 }, (_, i) => create(i % 2 ? twin : dispatch, number(i))));
    const counts = [a, b, c].map((phone) => one.filter((created) => created.task.phoneId === phone).length);
    expect(counts).toEqual([3, 3, 3]);

    // Room left today comes first: a phone with a daily limit nearly used up is passed by.
    await dispatch.phones.setLimits({ phoneId: a, kind: 'own', dailyLimit: 1_000 });
    await dispatch.phones.setLimits({ phoneId: b, kind: 'own', dailyLimit: 5 });
    await dispatch.phones.setLimits({ phoneId: c, kind: 'own', dailyLimit: 10 });
    const next = await create(dispatch, number(100));
    expect(next.task.phoneId).toBe(a);
  });

  it('sticky: a recipient keeps one phone under concurrent creates on two instances, and moves with its tasks when that phone goes silent (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.boolean()), { minLength: 10, maxLength: 40 }), async (creates) => {
        await truncateDispatch(dispatch.db);
        const phones = [await ownPhone('a'), await ownPhone('b'), await ownPhone('c')];
        await setMode('sticky');
        await Promise.all(creates.map(([recipient, onTwin]) => create(onTwin ? twin : dispatch, number(recipient))));

        const mapped = await dispatch.db.stickyRecipient.findMany({ where: { clientId: CLIENT } });
        const byRecipient = await phonesByRecipient();
        for (const [recipient, on] of byRecipient) {
          expect([...on]).toHaveLength(1);
          expect(mapped.find((row) => row.number === recipient)?.phoneId).toBe([...on][0]);
        }
        expect(new Set(mapped.map((row) => row.phoneId)).size).toBe(Math.min(3, byRecipient.size));

        // Its phone goes silent: its waiting tasks move, and its recipients with them, to one phone each.
        const quiet = phones[0]!;
        await silence(quiet);
        await Promise.all([dispatch.failover.sweepOnce(), twin.failover.sweepOnce()]);
        await Promise.all(creates.map(([recipient, onTwin]) => create(onTwin ? dispatch : twin, number(recipient))));
        const after = await dispatch.db.task.findMany({ where: { clientId: CLIENT, status: 'pending' } });
        const pendingOn = new Map<string, Set<number>>();
        for (const task of after) pendingOn.set(task.recipient, (pendingOn.get(task.recipient) ?? new Set()).add(task.phoneId));
        for (const on of pendingOn.values()) {
          expect([...on]).toHaveLength(1);
          expect(on.has(quiet)).toBe(false);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('sticky: an explicit phone_id goes where it says and leaves the recipient where it is kept', async () => {
    const a = await ownPhone('a');
    const b = await ownPhone('b');
    await setMode('sticky');
    const first = await create(dispatch, number(1));
    const other = first.task.phoneId === a ? b : a;
    const pinned = await create(dispatch, number(1), { requestedPhoneId: other });
    const again = await create(twin, number(1));
    expect([pinned.task.phoneId, again.task.phoneId]).toEqual([other, first.task.phoneId]);
  });

  it('sticky: a mapping older than sticky_days is forgotten', async () => {
    await ownPhone('a');
    await ownPhone('b');
    await dispatch.rules.update({ clientId: CLIENT, timeZone: ZONE, routingMode: 'sticky', stickyDays: 2 });
    const first = await create(dispatch, number(1));
    await dispatch.db.$executeRaw`UPDATE "dispatch"."sticky_recipients" SET last_used_at = now() - interval '3 days'`;
    // Both phones had one task each since: spread places it on the least recently used.
    await create(dispatch, number(2));
    const later = await create(dispatch, number(1));
    expect(later.task.phoneId).toBe(first.task.phoneId);
    await dispatch.db.$executeRaw`UPDATE "dispatch"."sticky_recipients" SET last_used_at = now() - interval '3 days' WHERE number = ${number(1)}`;
    await create(dispatch, number(3));
    const forgotten = await create(dispatch, number(1));
    const kept = await dispatch.db.stickyRecipient.findUniqueOrThrow({ where: { clientId_number: { clientId: CLIENT, number: number(1) } } });
    expect(kept.phoneId).toBe(forgotten.task.phoneId);
    expect(Date.now() - kept.lastUsedAt.getTime()).toBeLessThan(60_000);
  });

  it('sticky: a phone with two SIMs keeps each recipient on one SIM, and the claim names it', async () => {
    const phone = await ownPhone('dual');
    await dispatch.phones.setLimits({ phoneId: phone, kind: 'own', sims: 2 });
    await setMode('sticky');
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 ? twin : dispatch, number(i % 10))));
    const simOf = new Map<string, Set<number | null>>();
    for (const { task } of created) {
      const row = await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } });
      simOf.set(row.recipient, (simOf.get(row.recipient) ?? new Set()).add(row.sim));
    }
    for (const sims of simOf.values()) expect(sims.size).toBe(1);
    const used = new Set([...simOf.values()].flatMap((sims) => [...sims]));
    expect([...used].every((sim) => sim === 1 || sim === 2)).toBe(true);
    const claim = await dispatch.claims.claim({ tokenId: 1, phoneId: phone });
    expect(claim.claimed && [1, 2].includes(claim.task.sim!)).toBe(true);
  });

  it('never gives a capped phone more new recipients a month than its cap under concurrent creates, while numbers it has still go through it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 14 }), fc.boolean()), { minLength: 5, maxLength: 30 }), async (cap, creates) => {
        await truncateDispatch(dispatch.db);
        const capped = await ownPhone('capped');
        const spare = await ownPhone('spare');
        await dispatch.phones.setLimits({ phoneId: capped, kind: 'own', monthlyRecipients: cap });
        await Promise.all(creates.map(([recipient, onTwin]) => create(onTwin ? twin : dispatch, number(recipient))));

        const tasks = await dispatch.db.task.findMany({ where: { clientId: CLIENT } });
        const onCapped = new Set(tasks.filter((task) => task.phoneId === capped).map((task) => task.recipient));
        expect(onCapped.size).toBe(Math.min(cap, new Set(creates.map(([recipient]) => recipient)).size));
        // First mode: the capped phone takes every number it already has; the spare only those new to a full phone.
        for (const task of tasks) if (task.phoneId === spare) expect(onCapped.has(task.recipient)).toBe(false);
        const [details] = (await dispatch.phones.list({ clientId: CLIENT, kind: 'own' })).filter((phone) => phone.id === capped);
        expect(details).toMatchObject({ monthlyRecipients: cap, recipientsThisMonth: onCapped.size });
      }),
      { numRuns: 10 },
    );
  });

  it('refuses a new recipient before charging when every phone is at its cap, and still sends to the numbers it has', async () => {
    const only = await ownPhone('only');
    await dispatch.phones.setLimits({ phoneId: only, kind: 'own', monthlyRecipients: 1 });
    await create(dispatch, number(1));
    const balance = dispatch.billing.balance(CLIENT);
    await expect(create(dispatch, number(2))).rejects.toMatchObject({ code: 'no_active_phone', detail: expect.stringContaining('monthly recipients cap') });
    expect(dispatch.billing.balance(CLIENT)).toBe(balance);
    await expect(create(twin, number(1))).resolves.toMatchObject({ task: { phoneId: only } });
  });
});
