import fc from 'fast-check';
import { minuteOfWeek, WEEKDAYS, type SendWindow } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';

const CLIENT = 7;
const ZONE = 'America/New_York';
const past = () => new Date(Date.now() - 60_000).toISOString();

/** `HH:MM` of a minute of the day. */
const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** A window on today's weekday in ZONE that holds now (open) or ends before now and opens hours later (closed). */
function windowAroundNow(open: boolean): SendWindow {
  const minute = minuteOfWeek(new Date(), ZONE);
  const day = WEEKDAYS[Math.floor(minute / 1440)]!;
  const ofDay = minute % 1440;
  // Open: the whole day. Closed: a window of one minute, twelve hours from now (on today's or the next day, as the clock wraps).
  if (open) return { days: [day], from: '00:00', to: '24:00' };
  const start = (ofDay + 720) % 1440;
  return { days: [...WEEKDAYS], from: clock(start), to: clock((start + 1) % 1440) };
}

describe('send windows, priority and SMS parts in claims on Postgres, two dispatch instances', () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let twin: DispatchUnderTest;
  let phone: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    twin = await dispatchUnderTest(database.url, 'A');
    dispatch.billing.setBalance(CLIENT, 1_000_000);
  });

  afterAll(async () => {
    await dispatch?.close();
    await twin?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    phone = (await dispatch.phones.register({ clientId: CLIENT, name: 'phone', phoneLimit: 10 })).phone.id;
  });

  const create = (overrides = {}) => dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, recipient: '+12025550123', scheduledAt: past(), ...overrides }));
  const setWindows = (sendWindows: SendWindow[]) => dispatch.rules.update({ clientId: CLIENT, timeZone: ZONE, sendWindows });
  const claimAll = async (instance: DispatchUnderTest) => (await instance.claims.claimMany({ tokenId: 1, phoneId: phone, limit: 50 })).tasks.map((task) => task.id);

  it('holds a normal task while its client’s window is closed, and lets a high one through first', async () => {
    const view = await setWindows([windowAroundNow(false)]);
    expect(view).toMatchObject({ windowOpen: false, windowOpensAt: expect.any(String) });
    const normal = await create();
    const high = await create({ priority: 'high' });

    await expect(claimAll(dispatch)).resolves.toEqual([high.task.id]);
    await expect(twin.claims.claim({ tokenId: 1, phoneId: phone })).resolves.toMatchObject({ claimed: false });

    // Its long poll wakes when the window opens, not at its end.
    const idle = await twin.claims.claim({ tokenId: 1, phoneId: phone });
    expect(idle).toEqual({ claimed: false, nextDueAt: view.windowOpensAt });

    await setWindows([windowAroundNow(true)]);
    await expect(claimAll(twin)).resolves.toEqual([normal.task.id]);
  });

  it('holds a closed client’s normal tasks from an unbound worker of pooled gateways, and no other client’s (Profile B)', async () => {
    const pooled = await dispatchUnderTest(database.url, 'B');
    try {
      pooled.billing.setBalance(CLIENT, 1_000);
      const gateway = await pooled.phones.createGateway({ name: 'shared', url: 'http://10.0.0.9:8080' });
      await pooled.rules.update({ clientId: CLIENT, timeZone: ZONE, sendWindows: [windowAroundNow(false)] });
      const create = (clientId: number, overrides = {}) => pooled.creation.create(taskCreateCommand({ clientId, recipient: '+12025550123', scheduledAt: past(), ...overrides }));
      const held = await create(CLIENT);
      const high = await create(CLIENT, { priority: 'high' });
      const other = await create(CLIENT + 1);

      const claimed = await pooled.claims.claimMany({ tokenId: 9, limit: 10 });
      expect(claimed.tasks.map((task) => task.id)).toEqual([high.task.id, other.task.id]);
      expect(claimed.tasks.every((task) => task.phoneId === gateway.id)).toBe(true);
      await expect(pooled.claims.claimMany({ tokenId: 9, limit: 10 })).resolves.toMatchObject({ tasks: [] });
      expect((await pooled.db.task.findUniqueOrThrow({ where: { id: held.task.id } })).status).toBe('pending');
    } finally {
      await pooled.close();
    }
  });

  it('claims high-priority tasks before normal ones, each oldest first, and removes the windows with an empty list', async () => {
    await setWindows([windowAroundNow(true)]);
    const normal = [await create(), await create()];
    const high = [await create({ priority: 'high' }), await create({ priority: 'high' })];
    await expect(dispatch.lookup.get({ clientId: CLIENT, id: high[0]!.task.id })).resolves.toMatchObject({ priority: 'high' });

    await expect(claimAll(dispatch)).resolves.toEqual([...high, ...normal].map((created) => created.task.id));
    await expect(setWindows([])).resolves.toMatchObject({ sendWindows: [], windowOpen: true, windowOpensAt: null });
  });

  it('never hands out a normal task while the window is closed, nor holds a high one, whatever claims race (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 2, maxLength: 12 }), fc.boolean(), async (creates, open) => {
        await truncateDispatch(dispatch.db);
        phone = (await dispatch.phones.register({ clientId: CLIENT, name: 'phone', phoneLimit: 10 })).phone.id;
        await setWindows([windowAroundNow(open)]);
        const created = await Promise.all(creates.map(([high]) => create(high ? { priority: 'high' } : {})));
        const claimed = (await Promise.all(creates.map(([, onTwin]) => (onTwin ? twin : dispatch).claims.claimMany({ tokenId: 1, phoneId: phone, limit: 3 }))))
          .flatMap((batch) => batch.tasks.map((task) => task.id));
        claimed.push(...(await claimAll(dispatch)));

        const expected = created.filter((_, i) => open || creates[i]![0]).map((one) => one.task.id);
        expect([...claimed].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      }),
      { numRuns: 10 },
    );
  });

  it('counts a daily limit in SMS parts: a task whose parts do not fit waits, and parts given back come back', async () => {
    await dispatch.phones.setLimits({ phoneId: phone, kind: 'own', dailyLimit: 4 });
    const long = 'x'.repeat(300); // 2 parts of GSM-7
    const tasks = [await create({ message: long }), await create({ message: long }), await create({ message: 'short' })];

    const claimed = await dispatch.claims.claimMany({ tokenId: 1, phoneId: phone, limit: 10 });
    expect(claimed.tasks.map((task) => [task.id, task.parts])).toEqual([
      [tasks[0]!.task.id, 2],
      [tasks[1]!.task.id, 2],
    ]);
    const [counted] = await dispatch.phones.list({ clientId: CLIENT, kind: 'own' });
    expect(counted).toMatchObject({ partsToday: 4, dailyLimit: 4 });
    await expect(twin.claims.claim({ tokenId: 1, phoneId: phone })).resolves.toMatchObject({ claimed: false });

    await dispatch.claims.release({ tokenId: 1, id: tasks[1]!.task.id });
    await expect(twin.claims.claimMany({ tokenId: 1, phoneId: phone, limit: 10 })).resolves.toMatchObject({ tasks: [{ id: tasks[1]!.task.id, parts: 2 }] });
  });

  it('passes by a task whose parts do not fit the room left, so smaller ones after it still go', async () => {
    await dispatch.phones.setLimits({ phoneId: phone, kind: 'own', dailyLimit: 2 });
    const long = await create({ message: 'x'.repeat(459) }); // 3 parts
    const short = [await create({ message: 'one' }), await create({ message: 'two' }), await create({ message: 'three' })];

    await expect(dispatch.claims.claim({ tokenId: 1, phoneId: phone })).resolves.toMatchObject({ claimed: true, task: { id: short[0]!.task.id } });
    await expect(twin.claims.claimMany({ tokenId: 1, phoneId: phone, limit: 10 })).resolves.toMatchObject({ tasks: [{ id: short[1]!.task.id }] });
    await expect(dispatch.claims.claimMany({ tokenId: 1, phoneId: phone, limit: 10 })).resolves.toMatchObject({ tasks: [] });
    expect((await dispatch.db.task.findUniqueOrThrow({ where: { id: long.task.id } })).status).toBe('pending');
  });

  it('never hands a phone more parts a day than its limit under concurrent claims on two instances (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 8 }), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 10 }), async (limit, partsOfTasks) => {
        await truncateDispatch(dispatch.db);
        phone = (await dispatch.phones.register({ clientId: CLIENT, name: 'phone', phoneLimit: 10 })).phone.id;
        await dispatch.phones.setLimits({ phoneId: phone, kind: 'own', dailyLimit: limit });
        for (const parts of partsOfTasks) await create({ message: 'x'.repeat(153 * parts) });
        const batches = await Promise.all(partsOfTasks.map((_, i) => (i % 2 ? twin : dispatch).claims.claimMany({ tokenId: 1, phoneId: phone, limit: 2 })));
        const handed = batches.flatMap((batch) => batch.tasks).reduce((sum, task) => sum + task.parts, 0);
        expect(handed).toBeLessThanOrEqual(limit);
        const [counted] = await dispatch.phones.list({ clientId: CLIENT, kind: 'own' });
        expect(counted!.partsToday).toBe(handed);
      }),
      { numRuns: 10 },
    );
  });
});
