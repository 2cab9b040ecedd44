import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask, truncateDispatch } from '../testing/task-rows.js';
import { TaskStatsService } from './task-stats.service.js';

const DAY_MS = 86_400_000;
const KATHMANDU_OFFSET_MS = (5 * 60 + 45) * 60_000;

/** The instant today began in Kathmandu (+05:45 all year, so no zone library is needed to know it). */
function kathmanduMidnight(now = Date.now()): number {
  return Math.floor((now + KATHMANDU_OFFSET_MS) / DAY_MS) * DAY_MS - KATHMANDU_OFFSET_MS;
}

const dayOf = (instant: number) => new Date(instant).toISOString().slice(0, 10);

describe(`${TaskStatsService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phone1: number;
  let phone2: number;

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
    phone1 = (await dispatch.phones.register({ clientId: 1, name: 'one', phoneLimit: 1 })).phone.id;
    phone2 = (await dispatch.phones.register({ clientId: 2, name: 'two', phoneLimit: 1 })).phone.id;
  });

  async function sentTask(phoneId: number, clientId: number, sentAt: number): Promise<void> {
    const task = await insertTask(dispatch.db, { phoneId, clientId, createdAt: new Date(sentAt - 1_000) });
    await dispatch.db.task.update({ where: { id: task.id }, data: { status: 'sent', sentAt: new Date(sentAt), attempts: 1 } });
  }

  async function failedTask(phoneId: number, clientId: number, failedAt: number): Promise<void> {
    const task = await insertTask(dispatch.db, { phoneId, clientId, createdAt: new Date(failedAt - 1_000) });
    await dispatch.db.task.update({ where: { id: task.id }, data: { status: 'failed', failedAt: new Date(failedAt), error: 'no signal' } });
  }

  describe('per local day', () => {
    it('has every day of the range, oldest first, today last, zeros included', async () => {
      const days = await dispatch.stats.daily({ clientId: 1, days: 7, timeZone: 'Asia/Kathmandu' });

      const today = kathmanduMidnight() + KATHMANDU_OFFSET_MS;
      expect(days.map((day) => day.day)).toEqual(Array.from({ length: 7 }, (_, i) => dayOf(today - (6 - i) * DAY_MS)));
      expect(days.every((day) => day.sent === 0 && day.failed === 0 && day.pending === 0)).toBe(true);
    });

    it('puts a task on the day of the zone asked for, on either side of its midnight', async () => {
      const midnight = kathmanduMidnight();
      await sentTask(phone1, 1, midnight - 60_000);
      await sentTask(phone1, 1, midnight + 1_000);
      await failedTask(phone1, 1, midnight - DAY_MS - 1_000);
      await failedTask(phone1, 1, midnight - DAY_MS + 1_000);

      const days = await dispatch.stats.daily({ clientId: 1, days: 3, timeZone: 'Asia/Kathmandu' });

      const today = midnight + KATHMANDU_OFFSET_MS;
      expect(days).toEqual([
        { day: dayOf(today - 2 * DAY_MS), sent: 0, failed: 1, pending: 0 },
        { day: dayOf(today - DAY_MS), sent: 1, failed: 1, pending: 0 },
        { day: dayOf(today), sent: 1, failed: 0, pending: 0 },
      ]);

      // Kathmandu's midnight is 18:15 in UTC: in UTC both sent tasks fall on one day.
      const utc = await dispatch.stats.daily({ clientId: 1, days: 3, timeZone: 'UTC' });
      expect(utc.find((day) => day.day === dayOf(midnight))).toMatchObject({ sent: 2 });
      expect(utc.reduce((sum, day) => sum + day.sent, 0)).toBe(2);
    });

    it('counts as pending the tasks created on a day that are still pending or claimed', async () => {
      const midnight = kathmanduMidnight();
      await insertTask(dispatch.db, { phoneId: phone1, clientId: 1, createdAt: new Date(Math.min(Date.now(), midnight + 1_000)) });
      const claimed = await insertTask(dispatch.db, { phoneId: phone1, clientId: 1, createdAt: new Date(midnight - 1_000) });
      await dispatch.db.task.update({ where: { id: claimed.id }, data: { status: 'claimed', attempts: 1 } });
      await sentTask(phone1, 1, midnight - 5_000);

      const [yesterday, today] = await dispatch.stats.daily({ clientId: 1, days: 2, timeZone: 'Asia/Kathmandu' });

      expect(yesterday).toMatchObject({ sent: 1, pending: 1 });
      expect(today).toMatchObject({ sent: 0, pending: 1 });
    });

    it('leaves out what happened before the first day of the range', async () => {
      const midnight = kathmanduMidnight();
      await sentTask(phone1, 1, midnight - DAY_MS - 1_000);
      await insertTask(dispatch.db, { phoneId: phone1, clientId: 1, createdAt: new Date(midnight - DAY_MS - 1_000) });

      const days = await dispatch.stats.daily({ clientId: 1, days: 2, timeZone: 'Asia/Kathmandu' });

      expect(days.map(({ sent, failed, pending }) => sent + failed + pending)).toEqual([0, 0]);
    });

    it('counts only the client’s own tasks; an admin sees everyone’s', async () => {
      const now = Date.now();
      await sentTask(phone1, 1, now - 1_000);
      await sentTask(phone2, 2, now - 2_000);
      await sentTask(phone2, 2, now - 3_000);
      await failedTask(phone2, 2, now - 4_000);

      const todayOf = async (clientId?: number) => (await dispatch.stats.daily({ clientId, days: 1, timeZone: 'Europe/Belgrade' }))[0];

      expect(await todayOf(1)).toMatchObject({ sent: 1, failed: 0 });
      expect(await todayOf(2)).toMatchObject({ sent: 2, failed: 1 });
      expect(await todayOf(undefined)).toMatchObject({ sent: 3, failed: 1 });
      expect(await todayOf(2 ** 40)).toMatchObject({ sent: 0, failed: 0, pending: 0 });
    });

    it.each(['Mars/Olympus', 'UTC+3', "Europe/Belgrade'; --"])('refuses %j as a time zone', async (timeZone) => {
      await expect(dispatch.stats.daily({ days: 1, timeZone })).rejects.toMatchObject({ code: 'invalid_request' });
    });
  });

  describe('for the system', () => {
    it('counts tasks by status, every status present', async () => {
      await expect(dispatch.stats.system({ minutes: 1 })).resolves.toMatchObject({ tasksByStatus: { pending: 0, claimed: 0, sent: 0, failed: 0 } });

      await insertTask(dispatch.db, { phoneId: phone1, clientId: 1 });
      await insertTask(dispatch.db, { phoneId: phone2, clientId: 2 });
      await sentTask(phone1, 1, Date.now());
      await failedTask(phone2, 2, Date.now());

      const { tasksByStatus } = await dispatch.stats.system({ minutes: 1 });
      expect(tasksByStatus).toEqual({ pending: 2, claimed: 0, sent: 1, failed: 1 });
    });

    it('counts sent tasks per minute, every minute of the range present, oldest first', async () => {
      const start = Date.now();
      const thisMinute = Math.floor(start / 60_000) * 60_000;
      await sentTask(phone1, 1, thisMinute);
      await sentTask(phone2, 2, thisMinute + 1);
      await sentTask(phone1, 1, thisMinute - 2 * 60_000 + 59_999);
      await sentTask(phone1, 1, thisMinute - 10 * 60_000);

      const { sentPerMinute } = await dispatch.stats.system({ minutes: 5 });

      expect(sentPerMinute).toHaveLength(5);
      const minutes = sentPerMinute.map((entry) => Date.parse(entry.minute));
      expect(minutes.slice(1).map((minute, i) => minute - minutes[i]!)).toEqual([60_000, 60_000, 60_000, 60_000]);
      expect(minutes[4]).toBeGreaterThanOrEqual(thisMinute);
      const sentIn = (minute: number) => sentPerMinute.find((entry) => entry.minute === new Date(minute).toISOString())?.sent;
      expect(sentIn(thisMinute)).toBe(2);
      expect(sentIn(thisMinute - 2 * 60_000)).toBe(1);
      expect(sentPerMinute.reduce((sum, entry) => sum + entry.sent, 0)).toBe(3);
    });
  });
});
