import type { ReplyReceivedCommand } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { ConversationsService } from './conversations.service.js';

const CLIENT = 6;
const OTHER_CLIENT = 7;

describe(`${ConversationsService.name} on Postgres`, () => {
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
    phoneId = (await dispatch.phones.register({ clientId: CLIENT, name: 'pixel', phoneLimit: 2 })).phone.id;
    await dispatch.phones.register({ clientId: OTHER_CLIENT, name: 'other', phoneLimit: 2 });
  });

  const send = async (recipient: string, message: string, clientId = CLIENT) => (await dispatch.creation.create(taskCreateCommand({ clientId, recipient, message }))).task;
  const reply = (from: string, message: string, receivedAt = new Date()): ReplyReceivedCommand => ({
    eventId: randomUUID(), clientId: CLIENT, phoneId, messageId: 1, from, message, receivedAt: receivedAt.toISOString(), storedAt: new Date().toISOString(),
  });
  const numbers = async (query: { cursor?: string; search?: string; numbers?: string[]; limit?: number } = {}) => {
    const page = await dispatch.conversations.list({ clientId: CLIENT, limit: query.limit ?? 10, ...query });
    return { numbers: page.items.map((item) => item.number), next: page.nextCursor, items: page.items };
  };

  it('keeps one thread per number, newest first, moved up by each task and each reply, and only the client’s own', async () => {
    await send('+381641110001', 'first to one');
    await send('+381641110002', 'to two');
    await send('+381641110001', 'second to one');
    await send('+381641110003', 'to three', OTHER_CLIENT);
    expect((await numbers()).numbers).toEqual(['+381641110001', '+381641110002']);

    const replied = reply('+381641110002', 'Yes, thanks');
    await dispatch.conversations.replyReceived(replied);
    await dispatch.conversations.replyReceived(replied);
    const { items } = await numbers();
    expect(items.map((item) => item.number)).toEqual(['+381641110002', '+381641110001']);
    expect(items[0]).toMatchObject({ lastText: 'Yes, thanks', lastDirection: 'in', replyPhoneId: phoneId, readAt: null });
    expect(items[1]).toMatchObject({ lastText: 'second to one', lastDirection: 'out', replyPhoneId: null });

    // A reply relayed late, older than the thread's last message, does not move it or change its text.
    await dispatch.conversations.replyReceived(reply('+381641110001', 'old news', new Date(Date.now() - 3_600_000)));
    expect((await numbers()).items[1]).toMatchObject({ number: '+381641110001', lastText: 'second to one', replyPhoneId: phoneId });
  });

  it('pages threads with a cursor, searches numbers and task text, and lists a thread’s tasks newest first before a time', async () => {
    for (let n = 0; n < 5; n++) await send(`+38164111000${n}`, n === 3 ? 'Your Code is 4711' : `hello ${n}`);
    const first = await numbers({ limit: 2 });
    const second = await numbers({ limit: 2, cursor: first.next! });
    const third = await numbers({ limit: 2, cursor: second.next! });
    expect([...first.numbers, ...second.numbers, ...third.numbers]).toEqual(['+381641110004', '+381641110003', '+381641110002', '+381641110001', '+381641110000']);
    expect(third.next).toBeNull();
    expect((await numbers({ search: '11000' })).numbers).toHaveLength(5);
    expect((await numbers({ search: '0003' })).numbers).toEqual(['+381641110003']);
    const hits = await dispatch.conversations.search({ clientId: CLIENT, text: 'code IS', limit: 10 });
    expect(hits).toEqual(['+381641110003']);
    expect((await numbers({ numbers: hits })).numbers).toEqual(['+381641110003']);
    expect((await dispatch.conversations.search({ clientId: CLIENT, text: '100%', limit: 10 }))).toEqual([]);

    const older = await send('+381641119999', 'older');
    await dispatch.db.$executeRaw`UPDATE "dispatch"."tasks" SET created_at = created_at - interval '1 minute' WHERE id = ${older.id}`;
    const newer = await send('+381641119999', 'newer');
    const all = await dispatch.conversations.tasks({ clientId: CLIENT, number: '+381641119999', limit: 10 });
    expect(all.map((task) => task.message)).toEqual(['newer', 'older']);
    const before = await dispatch.conversations.tasks({ clientId: CLIENT, number: '+381641119999', limit: 10, before: all[0]!.createdAt });
    expect(before.map((task) => task.id)).toEqual([older.id]);
    expect(newer.id).toBeGreaterThan(older.id);
    expect(await dispatch.conversations.tasks({ clientId: OTHER_CLIENT, number: '+381641119999', limit: 10 })).toEqual([]);
  });

  it('marks a thread read, and answers not_found for a number without one', async () => {
    await send('+381641110001', 'hi');
    const read = await dispatch.conversations.read({ clientId: CLIENT, number: '+381641110001' });
    expect(read.readAt).toEqual(expect.any(String));
    await expect(dispatch.conversations.read({ clientId: CLIENT, number: '+381641119998' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(dispatch.conversations.read({ clientId: OTHER_CLIENT, number: '+381641110001' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
