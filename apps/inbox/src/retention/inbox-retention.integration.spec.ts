import { RetentionPruner } from '@smsq/platform';
import { holdRowsLocked, whileWriting, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InboxDatabase } from '../database/inbox-database.js';
import type { MessagesService } from '../messages/messages.service.js';
import { inbound, nextId, openInboxTestDatabase, testInboxConfig } from '../testing/inbox-harness.js';
import { inboxPrunes } from './inbox-retention.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SMALL_BATCHES = { batchRows: 3, maxBatches: 1_000 };
const config = testInboxConfig({ retentionIntervalS: 300, outboxRetentionS: 3_600, messageRetentionDays: 2 });

describe(`${RetentionPruner.name} of inbox on Postgres`, () => {
  let testDatabase: TestDatabase;
  let database: InboxDatabase;
  let messages: MessagesService;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ testDatabase, database, messages, close } = await openInboxTestDatabase('inbox_retention', config));
  });

  afterAll(async () => {
    await close?.();
  });

  beforeEach(async () => {
    await database.$executeRaw`TRUNCATE "inbox"."messages", "inbox"."outbox_events" RESTART IDENTITY`;
  });

  const ago = (ms: number) => new Date(Date.now() - ms);

  async function outboxEvent(publishedAt: Date | null): Promise<bigint> {
    const [row] = await database.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "inbox"."outbox_events" (pattern, payload, created_at, published_at)
      VALUES ('dispatch.webhook.reply-received.v1', '{}'::jsonb, now() - interval '3 days', ${publishedAt}) RETURNING id`;
    return row!.id;
  }

  async function reply(receivedAt: Date): Promise<number> {
    const [row] = await database.$queryRaw<{ id: number }[]>`
      INSERT INTO "inbox"."messages" (client_id, phone_id, sender, body, received_at, dedup_key)
      VALUES (1, 1, '+38164123456', 'hi', ${receivedAt}, ${`test:${nextId()}`}) RETURNING id`;
    return row!.id;
  }

  const eventIds = async () => (await database.outboxEvent.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((row) => row.id);
  const replyIds = async () => (await database.message.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((row) => row.id);

  it('prunes exactly the published outbox events and the replies past their periods, while replies keep arriving and events get published', async () => {
    const events = {
      publishedLongAgo: await outboxEvent(ago(2 * HOUR_MS)),
      publishedRecently: await outboxEvent(ago(30 * 60_000)),
      neverPublished: await outboxEvent(null),
      heldByRelay: await outboxEvent(ago(2 * HOUR_MS)),
    };
    // Enough prunable rows that the run takes many statements, with the writers in between.
    await database.$executeRaw`
      INSERT INTO "inbox"."outbox_events" (pattern, payload, published_at)
      SELECT 'dispatch.webhook.reply-received.v1', '{}'::jsonb, now() - interval '2 hours' FROM generate_series(1, 90)`;
    const backlog = (await eventIds()).slice(-90);
    const replies = { receivedLongAgo: await reply(ago(3 * DAY_MS)), receivedRecently: await reply(ago(DAY_MS)) };
    const heldLock = await holdRowsLocked(testDatabase.url, 'SELECT id FROM "inbox"."outbox_events" WHERE id = $1 FOR UPDATE', [events.heldByRelay]);
    const before = { events: await eventIds(), replies: await replyIds() };
    const sut = new RetentionPruner('inbox', database, inboxPrunes(config), config.retentionIntervalS, SMALL_BATCHES);
    const storeAndPublish = async () => {
      await messages.store({ messages: [inbound({ clientId: 1, phoneId: 1, receivedAt: new Date().toISOString() })] });
      await database.$executeRaw`UPDATE "inbox"."outbox_events" SET published_at = now() WHERE id = (SELECT min(id) FROM "inbox"."outbox_events" WHERE published_at IS NULL AND id > ${events.neverPublished})`;
    };

    let outcome: { result: Record<string, number>; writes: number };
    try {
      outcome = await whileWriting([storeAndPublish], () => sut.pruneOnce());
    } finally {
      await heldLock.release();
    }

    expect(outcome.writes).toBeGreaterThan(0);
    expect(outcome.result).toEqual({ 'inbox.outbox_events': 91, 'inbox.messages': 1 });
    const events_ = await eventIds();
    const replies_ = await replyIds();
    const gone = [events.publishedLongAgo, ...backlog];
    expect(events_).toEqual(expect.arrayContaining(before.events.filter((id) => !gone.includes(id))));
    expect(events_.filter((id) => gone.includes(id))).toEqual([]);
    expect(events_).toHaveLength(before.events.length - gone.length + outcome.writes);
    expect(replies_).toEqual([replies.receivedRecently, ...replies_.slice(1)]);
    expect(replies_).toHaveLength(1 + outcome.writes);

    expect(await sut.pruneOnce()).toEqual({ 'inbox.outbox_events': 1, 'inbox.messages': 0 });
    expect(await database.outboxEvent.findUnique({ where: { id: events.heldByRelay } })).toBeNull();
  });

  it('keeps every reply for ever when SMSQ_TASK_RETENTION_DAYS is unset', async () => {
    const old = await reply(ago(400 * DAY_MS));
    const sut = new RetentionPruner('inbox', database, inboxPrunes({ ...config, messageRetentionDays: undefined }), 300);

    expect(await sut.pruneOnce()).toEqual({ 'inbox.outbox_events': 0 });
    expect(await replyIds()).toEqual([old]);
  });

  it('does not store again, nor announce again, a reply a phone syncs after its retention pruned it', async () => {
    const receivedAt = ago(3 * DAY_MS).toISOString();
    const sync = { messages: [inbound({ clientId: 1, phoneId: 1, receivedAt, externalId: 'sms-1' }), inbound({ clientId: 1, phoneId: 1, receivedAt: new Date().toISOString() })] };

    expect(await messages.store(sync)).toEqual({ stored: 1, duplicates: 1 });
    expect(await database.message.count({ where: { externalId: 'sms-1' } })).toBe(0);
    expect(await database.outboxEvent.count()).toBe(1);
  });

  it('lets replicas prune at once: both finish, and together they delete each published event once and nothing else', async () => {
    await database.$executeRaw`
      INSERT INTO "inbox"."outbox_events" (pattern, payload, published_at)
      SELECT 'dispatch.webhook.reply-received.v1', '{}'::jsonb, CASE WHEN n % 4 = 0 THEN NULL ELSE now() - interval '2 hours' END
        FROM generate_series(1, 800) AS n`;
    const kept = (await database.outboxEvent.findMany({ where: { publishedAt: null }, select: { id: true }, orderBy: { id: 'asc' } })).map((row) => row.id);
    const replicas = [0, 1].map(() => new RetentionPruner('inbox', database, inboxPrunes(config), 300, { batchRows: 40, maxBatches: 1_000 }));

    const runs = await Promise.all(replicas.map((replica) => replica.pruneOnce()));

    expect(runs.reduce((sum, run) => sum + (run['inbox.outbox_events'] ?? 0), 0)).toBe(600);
    expect(await eventIds()).toEqual(kept);
  });
});
