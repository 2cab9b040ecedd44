import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { ClientTimezoneService } from './client-timezone.service.js';
import { toTaskView } from './task-view.js';

const CLIENT = 1;
/** 2099-06-01 10:00 UTC: 12:00 in Belgrade (summer), 06:00 in New York, 19:00 in Tokyo, 11:00 in London. */
const LATER = { scheduledAt: '2099-06-01T10:00:00.000Z', scheduledLocal: '2099-06-01 12:00:00' };

describe(`${ClientTimezoneService.name}: local times rendered in the client's zone when read`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  let phoneId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
  });

  beforeEach(async () => {
    await truncateDispatch(dispatch.db);
    phoneId = (await dispatch.phones.register({ clientId: CLIENT, name: 'one', phoneLimit: 2 })).phone.id;
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  /** Every way a client or a worker reads the task, each answering its local scheduled_at. */
  async function localTimesOf(id: number): Promise<Record<string, string>> {
    const page = await dispatch.list.list({ clientId: CLIENT, page: 1, pageSize: 10 });
    const feed = await dispatch.list.feed({ clientId: CLIENT, limit: 10 });
    const webhookTask = await new WebhookDeliveriesRepository(dispatch.db).taskOf(id);
    return {
      lookup: (await dispatch.lookup.get({ clientId: CLIENT, id })).scheduledAt,
      list: page.items.find((task) => task.id === id)!.scheduledAt,
      feed: feed.items.find((task) => task.id === id)!.scheduledAt,
      webhook: toTaskView(webhookTask!).scheduledAt,
    };
  }

  const everywhere = (local: string) => ({ lookup: local, list: local, feed: local, webhook: local });

  it('shows the local time a task was created with while the client never changed its zone', async () => {
    const { task } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, ...LATER }));

    expect(task.scheduledAt).toBe('2099-06-01 12:00:00');
    expect(await localTimesOf(task.id)).toEqual(everywhere('2099-06-01 12:00:00'));
  });

  it('reads every task in the new zone after a change, without rewriting a stored row, and keeps its instant', async () => {
    const { task } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, ...LATER }));

    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'America/New_York', version: 1 });

    expect(await localTimesOf(task.id)).toEqual(everywhere('2099-06-01 06:00:00'));
    const stored = await dispatch.db.task.findUniqueOrThrow({ where: { id: task.id } });
    expect(stored).toMatchObject({ scheduledLocal: '2099-06-01 12:00:00', scheduledAt: new Date(LATER.scheduledAt) });
  });

  it('answers a create that raced the change (its local text still of the old zone) in the new zone', async () => {
    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'Asia/Tokyo', version: 1 });

    // The gateway read the client's old zone just before the change reached dispatch.
    const { task } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, ...LATER }));

    expect(task.scheduledAt).toBe('2099-06-01 19:00:00');
    expect(await localTimesOf(task.id)).toEqual(everywhere('2099-06-01 19:00:00'));
  });

  it('keeps the newest of two changes whatever order they arrive in, and a repeat changes nothing', async () => {
    const { task } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, ...LATER }));

    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'Asia/Tokyo', version: 3 });
    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'Europe/London', version: 2 });
    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'Europe/London', version: 2 });

    expect(await localTimesOf(task.id)).toEqual(everywhere('2099-06-01 19:00:00'));
    expect(await dispatch.db.phone.findUniqueOrThrow({ where: { id: phoneId } })).toMatchObject({ timeZone: 'Asia/Tokyo' });

    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'Europe/London', version: 4 });
    expect(await localTimesOf(task.id)).toEqual(everywhere('2099-06-01 11:00:00'));
    expect(await dispatch.db.phone.findUniqueOrThrow({ where: { id: phoneId } })).toMatchObject({ timeZone: 'Europe/London' });
  });

  it("changes one client's times only", async () => {
    await dispatch.phones.register({ clientId: 2, name: 'two', phoneLimit: 2 });
    const { task: other } = await dispatch.creation.create(taskCreateCommand({ clientId: 2, ...LATER }));

    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'America/New_York', version: 1 });

    expect((await dispatch.lookup.get({ clientId: 2, id: other.id })).scheduledAt).toBe('2099-06-01 12:00:00');
  });

  it('gives a worker the local time in the zone, and so does a cancel', async () => {
    const { task: due } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, scheduledAt: '2026-01-15T10:00:00.000Z', scheduledLocal: '2026-01-15 11:00:00' }));
    const { task: later } = await dispatch.creation.create(taskCreateCommand({ clientId: CLIENT, ...LATER }));
    await dispatch.timezones.timezoneChanged({ clientId: CLIENT, timezone: 'America/New_York', version: 1 });

    const claim = await dispatch.claims.claim({ tokenId: 1, phoneId });
    const cancelled = await dispatch.cancel.cancel({ clientId: CLIENT, id: later.id });

    expect(claim).toMatchObject({ claimed: true, task: { id: due.id, scheduledAt: '2026-01-15 05:00:00' } });
    expect(cancelled).toMatchObject({ id: later.id, status: 'failed', scheduledAt: '2099-06-01 06:00:00' });
  });
});
