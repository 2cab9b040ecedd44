import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../generated/prisma/client.js';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { insertTask } from '../testing/task-rows.js';
import { TaskListService } from './task-list.service.js';

const T0 = Date.parse('2026-11-01T10:00:00.000Z');
const minutesAfterT0 = (minutes: number) => new Date(T0 + minutes * 60_000);

describe(`${TaskListService.name} on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** Client 1's tasks, oldest first: created at T0, T0+1 min, … */
  let ofClient1: Task[];
  let ofClient2: Task[];

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    const phone1 = (await dispatch.phones.register({ clientId: 1, name: 'one', phoneLimit: 1 })).phone.id;
    const phone2 = (await dispatch.phones.register({ clientId: 2, name: 'two', phoneLimit: 1 })).phone.id;
    const recipients = ['+381601111111', '+381602222222', '+381641234567', '+381601111999', '+14155550100'];
    ofClient1 = [];
    // Inserted newest first, so id order and creation order disagree: the list must follow creation.
    for (let minute = 4; minute >= 0; minute--) {
      ofClient1.unshift(await insertTask(dispatch.db, { phoneId: phone1, clientId: 1, recipient: recipients[minute], createdAt: minutesAfterT0(minute) }));
    }
    ofClient2 = [];
    for (let minute = 0; minute < 3; minute++) {
      ofClient2.push(await insertTask(dispatch.db, { phoneId: phone2, clientId: 2, recipient: '+381601111111', createdAt: minutesAfterT0(minute) }));
    }
    await dispatch.db.task.update({ where: { id: ofClient1[1]!.id }, data: { status: 'failed', failedAt: new Date(), error: 'no signal' } });
    await dispatch.db.task.update({ where: { id: ofClient2[0]!.id }, data: { status: 'failed', failedAt: new Date(), error: 'no signal' } });
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  const idsOf = (tasks: Array<{ id: number }>) => tasks.map((task) => task.id);
  const newestFirst = (tasks: Task[]) => idsOf([...tasks].reverse());

  it('lists only the client’s own tasks, newest first, with the total', async () => {
    const page = await dispatch.list.list({ clientId: 1, page: 1, pageSize: 50 });

    expect(idsOf(page.items)).toEqual(newestFirst(ofClient1));
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 50 });
    expect(page.items.every((task) => task.clientId === 1)).toBe(true);
    expect(page.items[0]).toMatchObject({ recipient: '+14155550100', status: 'pending', createdAt: minutesAfterT0(4).toISOString() });

    const other = await dispatch.list.list({ clientId: 2, page: 1, pageSize: 50 });
    expect(idsOf(other.items)).toEqual(newestFirst(ofClient2));
    expect(other.total).toBe(3);
  });

  it('gives an admin everyone’s tasks when no client is named', async () => {
    const page = await dispatch.list.list({ page: 1, pageSize: 50 });

    expect(page.total).toBe(8);
    expect(new Set(page.items.map((task) => task.clientId))).toEqual(new Set([1, 2]));
    const created = page.items.map((task) => task.createdAt);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('pages through the list, the total staying the whole count', async () => {
    const all = newestFirst(ofClient1);
    const pages = await Promise.all([1, 2, 3, 4].map((page) => dispatch.list.list({ clientId: 1, page, pageSize: 2 })));

    expect(pages.map((page) => idsOf(page.items))).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4), []]);
    expect(pages.map((page) => page.total)).toEqual([5, 5, 5, 5]);
    await expect(dispatch.list.list({ clientId: 1, page: 2 ** 40, pageSize: 200 })).resolves.toEqual({ items: [], total: 5, page: 2 ** 40, pageSize: 200 });
  });

  it('filters by status within the client only', async () => {
    const failed1 = await dispatch.list.list({ clientId: 1, status: 'failed', page: 1, pageSize: 50 });
    const failed2 = await dispatch.list.list({ clientId: 2, status: 'failed', page: 1, pageSize: 50 });

    expect(idsOf(failed1.items)).toEqual([ofClient1[1]!.id]);
    expect(failed1.items[0]).toMatchObject({ status: 'failed', error: 'no signal' });
    expect(idsOf(failed2.items)).toEqual([ofClient2[0]!.id]);
    expect((await dispatch.list.list({ clientId: 1, status: 'sent', page: 1, pageSize: 50 })).total).toBe(0);
  });

  it('filters by creation time, from inclusive and to exclusive', async () => {
    const page = await dispatch.list.list({ clientId: 1, from: minutesAfterT0(1).toISOString(), to: minutesAfterT0(3).toISOString(), page: 1, pageSize: 50 });

    expect(idsOf(page.items)).toEqual([ofClient1[2]!.id, ofClient1[1]!.id]);
    expect(page.total).toBe(2);
    // The same instants written with an offset, and without one (read as UTC).
    const withOffset = await dispatch.list.list({ clientId: 1, from: '2026-11-01T11:01:00+01:00', to: '2026-11-01T10:03:00', page: 1, pageSize: 50 });
    expect(idsOf(withOffset.items)).toEqual(idsOf(page.items));
  });

  it('finds a part of the recipient’s number, typed with spaces or not', async () => {
    const byPart = await dispatch.list.list({ clientId: 1, recipient: '1111', page: 1, pageSize: 50 });
    expect(idsOf(byPart.items)).toEqual([ofClient1[3]!.id, ofClient1[0]!.id]);

    const typed = await dispatch.list.list({ clientId: 1, recipient: '+381 64 123', page: 1, pageSize: 50 });
    expect(idsOf(typed.items)).toEqual([ofClient1[2]!.id]);

    const all = await dispatch.list.list({ clientId: 1, recipient: '', page: 1, pageSize: 50 });
    expect(all.total).toBe(5);
  });

  it.each(['%', '_', '1%1', 'abc'])('treats %j as text that no number contains, not as a pattern', async (search) => {
    await expect(dispatch.list.list({ clientId: 1, recipient: search, page: 1, pageSize: 50 })).resolves.toMatchObject({ items: [], total: 0 });
  });

  it('combines the filters', async () => {
    const page = await dispatch.list.list({ clientId: 1, status: 'pending', recipient: '38160', from: minutesAfterT0(1).toISOString(), page: 1, pageSize: 50 });
    expect(idsOf(page.items)).toEqual([ofClient1[3]!.id]);
  });

  it('knows no tasks of a client id no row can have', async () => {
    await expect(dispatch.list.list({ clientId: 2 ** 40, page: 1, pageSize: 50 })).resolves.toMatchObject({ items: [], total: 0 });
  });

  describe('feed', () => {
    const idsOf = (tasks: Array<{ id: number }>) => tasks.map((task) => task.id);

    it('walks one client’s tasks newest first, page after page, each starting after the last of the one before', async () => {
      const pages: number[][] = [];
      let after: { afterCreatedAt: string; afterId: number } | undefined;
      for (;;) {
        const page = await dispatch.list.feed({ clientId: 1, limit: 2, ...after });
        pages.push(idsOf(page.items));
        if (!page.hasMore) break;
        const last = page.items.at(-1)!;
        after = { afterCreatedAt: last.createdAt, afterId: last.id };
      }

      expect(pages).toEqual([idsOf([ofClient1[4]!, ofClient1[3]!]), idsOf([ofClient1[2]!, ofClient1[1]!]), idsOf([ofClient1[0]!])]);
    });

    it('breaks ties of the same creation instant by id, and filters by status and by creation time', async () => {
      const sameInstant = minutesAfterT0(10);
      const phoneId = ofClient2[0]!.phoneId;
      const [first, second] = [await insertTask(dispatch.db, { phoneId, clientId: 2, createdAt: sameInstant }), await insertTask(dispatch.db, { phoneId, clientId: 2, createdAt: sameInstant })];

      const page = await dispatch.list.feed({ clientId: 2, limit: 1 });
      const next = await dispatch.list.feed({ clientId: 2, limit: 1, afterCreatedAt: page.items[0]!.createdAt, afterId: page.items[0]!.id });
      const failed = await dispatch.list.feed({ clientId: 2, limit: 50, status: 'failed' });
      const window = await dispatch.list.feed({ clientId: 1, limit: 50, since: minutesAfterT0(1).toISOString(), until: minutesAfterT0(3).toISOString() });

      expect([idsOf(page.items), idsOf(next.items)]).toEqual([[second.id], [first.id]]);
      expect(idsOf(failed.items)).toEqual([ofClient2[0]!.id]);
      expect(idsOf(window.items)).toEqual(idsOf([ofClient1[2]!, ofClient1[1]!]));
      expect((await dispatch.list.feed({ clientId: 3, limit: 50 })).items).toEqual([]);
    });
  });
});
