import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { PhonePauses } from './phone-pauses.js';

const CLIENT = 7;
const TOKEN = 1;
const OTHER_TOKEN = 2;

describe(`${PhonePauses.name} on Postgres, two dispatch instances`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let twin: DispatchUnderTest;
  let refused: number;
  let spare: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    twin = await dispatchUnderTest(database.url, 'A');
  });

  afterAll(async () => {
    await dispatch?.close();
    await twin?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    refused = (await dispatch.phones.register({ clientId: CLIENT, name: 'refused', phoneLimit: 10 })).phone.id;
    spare = (await dispatch.phones.register({ clientId: CLIENT, name: 'spare', phoneLimit: 10 })).phone.id;
    await dispatch.webhooks.create({ clientId: CLIENT, url: 'https://hooks.example.com/smsq', events: ['phone.paused', 'phone.resumed', 'task.rerouted'] });
  });

  const stored = (id: number) => dispatch.db.task.findUniqueOrThrow({ where: { id } });
  const phone = (id: number) => dispatch.db.phone.findUniqueOrThrow({ where: { id } });
  const events = async (type: string) => (await dispatch.db.webhookDelivery.findMany({ where: { type } })).map((delivery) => JSON.parse(delivery.body!) as { data: { id: number; paused_until: string | null; pause_reason: string | null } });
  const refuse = (instance: DispatchUnderTest, id: number) => instance.reports.report({ tokenId: TOKEN, phoneId: refused, id, status: 'failed', retry: true, reason: 'carrier_volume', error: 'RESULT_ERROR_LIMIT_EXCEEDED' });

  it('pauses a phone the carrier refused for volume once, however many refusals race, and moves the refused and the waiting tasks off it', async () => {
    const inFlight = [await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT }), await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT })];
    await dispatch.claims.claimMany({ tokenId: TOKEN, phoneId: refused, limit: 2 });
    const waiting = await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT });
    const pinned = await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT, pinned: true });
    const before = Date.now();

    await expect(Promise.all([refuse(dispatch, inFlight[0]!.id), refuse(twin, inFlight[1]!.id)])).resolves.toEqual([
      { id: inFlight[0]!.id, status: 'pending' },
      { id: inFlight[1]!.id, status: 'pending' },
    ]);

    const paused = await phone(refused);
    expect(paused.pauseReason).toBe('carrier_volume');
    expect(paused.pausedUntil!.getTime() - before).toBeGreaterThan(55_000);
    expect(paused.pausedUntil!.getTime() - before).toBeLessThan(65_000);
    expect(await events('phone.paused')).toEqual([expect.objectContaining({ data: expect.objectContaining({ id: refused, pause_reason: 'carrier_volume', paused_until: paused.pausedUntil!.toISOString() }) })]);
    // The carrier refused the phone, not the task: the attempt does not count, and it goes out through the other phone.
    // The waiting task moves once the pause is in, after the report has been answered.
    await vi.waitFor(async () => expect(await stored(waiting.id)).toMatchObject({ phoneId: spare }), { timeout: 5_000, interval: 50 });
    for (const task of [...inFlight, waiting]) expect(await stored(task.id)).toMatchObject({ phoneId: spare, status: 'pending', attempts: 0, reroutedBecause: 'phone_paused' });
    await expect(dispatch.lookup.get({ clientId: CLIENT, id: waiting.id })).resolves.toMatchObject({ phoneId: spare, firstPhoneId: refused, reroutedBecause: 'phone_paused' });
    expect(await stored(pinned.id)).toMatchObject({ phoneId: refused, status: 'pending' });
    await expect(twin.claims.claim({ tokenId: TOKEN, phoneId: refused })).resolves.toMatchObject({ claimed: false });
    const elsewhere = await dispatch.claims.claimMany({ tokenId: OTHER_TOKEN, phoneId: spare, limit: 10 });
    expect(elsewhere.tasks.map((task) => task.id).sort()).toEqual([...inFlight, waiting].map((task) => task.id).sort());
    const [view] = (await dispatch.phones.list({ clientId: CLIENT, kind: 'own' })).filter((one) => one.id === refused);
    expect(view).toMatchObject({ pausedUntil: paused.pausedUntil!.toISOString(), pauseReason: 'carrier_volume' });
  });

  it('takes only the holder’s word: another token’s report of the task pauses nothing and is not found', async () => {
    const task = await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT });
    await dispatch.claims.claim({ tokenId: TOKEN, phoneId: refused });

    await expect(dispatch.reports.report({ tokenId: OTHER_TOKEN, id: task.id, status: 'failed', retry: true, reason: 'carrier_volume' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await phone(refused)).toMatchObject({ pausedUntil: null });
    expect(await events('phone.paused')).toEqual([]);
  });

  it('routes no new task to a paused phone, and pauses longer on each repeat within a day', async () => {
    const first = await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT, pinned: true });
    await dispatch.claims.claim({ tokenId: TOKEN, phoneId: refused });
    await refuse(dispatch, first.id);
    await expect(dispatch.creation.create(taskCreateCommand({ clientId: CLIENT }))).resolves.toMatchObject({ task: { phoneId: spare } });

    const lengths: number[] = [];
    for (const step of [1, 2, 3, 4, 5]) {
      const paused = await phone(refused);
      lengths.push(Math.round((paused.pausedUntil!.getTime() - paused.pausedAt!.getTime()) / 1_000));
      // The pause is over; the phone takes its task again and is refused again.
      await dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET paused_until = now() - interval '1 second' WHERE id = ${refused}`;
      if (step === 5) break;
      await expect(dispatch.claims.claim({ tokenId: TOKEN, phoneId: refused })).resolves.toMatchObject({ claimed: true, task: { id: first.id } });
      await refuse(twin, first.id);
    }
    expect(lengths).toEqual([60, 300, 900, 3600, 3600]);
    // A day after its last pause, the next starts from the first step again.
    await dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET paused_at = now() - interval '25 hours' WHERE id = ${refused}`;
    await dispatch.claims.claim({ tokenId: TOKEN, phoneId: refused });
    await refuse(dispatch, first.id);
    const again = await phone(refused);
    expect(Math.round((again.pausedUntil!.getTime() - again.pausedAt!.getTime()) / 1_000)).toBe(60);
    expect(await stored(first.id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('resumes by itself when the pause is over, and at once at its owner’s word, each told once', async () => {
    const task = await insertTask(dispatch.db, { phoneId: refused, clientId: CLIENT, pinned: true });
    await dispatch.claims.claim({ tokenId: TOKEN, phoneId: refused });
    await refuse(dispatch, task.id);

    await expect(dispatch.pauses.resume({ phoneId: refused, kind: 'own', clientId: CLIENT + 1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.pauses.resume({ phoneId: refused, kind: 'own', clientId: CLIENT })).resolves.toMatchObject({ id: refused, pausedUntil: null, pauseReason: null });
    await expect(dispatch.pauses.resume({ phoneId: refused, kind: 'own', clientId: CLIENT })).resolves.toMatchObject({ pausedUntil: null });
    expect(await events('phone.resumed')).toHaveLength(1);
    await expect(twin.claims.claim({ tokenId: TOKEN, phoneId: refused })).resolves.toMatchObject({ claimed: true, task: { id: task.id } });

    await refuse(twin, task.id);
    await dispatch.db.$executeRaw`UPDATE "dispatch"."phones" SET paused_until = now() - interval '1 second' WHERE id = ${refused}`;
    const watched = await Promise.all([dispatch.phoneWatch.watchOnce(), twin.phoneWatch.watchOnce()]);
    expect(watched.flatMap((round) => round.resumed)).toEqual([refused]);
    expect(await events('phone.resumed')).toHaveLength(2);
    expect(await phone(refused)).toMatchObject({ pausedUntil: null, pauseReason: null, pauseStep: 2 });
  });
});
