import { loadConfig, RetentionPruner } from '@smsq/platform';
import { holdRowsLocked, whileWriting, type TestDatabase } from '@smsq/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readDispatchConfig, type DispatchConfig } from '../config/dispatch-config.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { createDispatchTestDatabase } from '../testing/dispatch-under-test.js';
import { truncateDispatch } from '../testing/task-rows.js';
import { dispatchPrunes } from './dispatch-retention.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Small batches, so that one run takes many statements and the writers get in between them. */
const SMALL_BATCHES = { batchRows: 3, maxBatches: 1_000 };

type TaskStatus = 'pending' | 'claimed' | 'sent' | 'failed';

describe(`${RetentionPruner.name} of dispatch on Postgres`, () => {
  let database: TestDatabase;
  let config: DispatchConfig;
  let db: DispatchDatabase;
  let phoneId: number;
  let endpointId: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    config = loadConfig(readDispatchConfig, {
      DATABASE_URL: database.url,
      SMSQ_RETENTION_OUTBOX_S: '3600',
      SMSQ_RETENTION_WEBHOOK_S: '3600',
      SMSQ_TASK_RETENTION_DAYS: '1',
    });
    db = new DispatchDatabase(config);
    await db.onModuleInit();
  });

  afterAll(async () => {
    await db?.onModuleDestroy();
    await database?.drop();
  });

  beforeEach(async () => {
    await truncateDispatch(db);
    [{ id: phoneId }] = await db.$queryRaw<{ id: number }[]>`INSERT INTO "dispatch"."phones" (kind, client_id, name) VALUES ('own', 1, 'pixel') RETURNING id`;
    [{ id: endpointId }] = await db.$queryRaw<{ id: number }[]>`
      INSERT INTO "dispatch"."webhook_endpoints" (client_id, url, events, secret) VALUES (1, 'https://hooks.example.test/', ARRAY['task.sent'], 's') RETURNING id`;
  });

  const ago = (ms: number) => new Date(Date.now() - ms);

  async function outboxMessage(createdAt: Date, publishedAt: Date | null): Promise<bigint> {
    const [row] = await db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "dispatch"."outbox_messages" (pattern, payload, created_at, published_at)
      VALUES ('billing.refund.v1', '{}'::jsonb, ${createdAt}, ${publishedAt}) RETURNING id`;
    return row!.id;
  }

  async function task(status: TaskStatus, at: { created?: Date; sent?: Date; delivered?: Date; failed?: Date } = {}): Promise<number> {
    const created = at.created ?? at.sent ?? at.failed ?? new Date();
    const [row] = await db.$queryRaw<{ id: number }[]>`
      INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, created_at, sent_at, delivered_at, failed_at)
      VALUES (${randomUUID()}::uuid, 1, ${phoneId}, '+381601234567', 'hello', ${status}::"dispatch"."task_status", ${created}, '2026-01-01 00:00:00', ${created},
              ${at.sent ?? null}, ${at.delivered ?? null}, ${at.failed ?? null})
      RETURNING id`;
    return row!.id;
  }

  async function delivery(status: 'pending' | 'delivered' | 'failed', lastAttempt: Date, taskId: number | null = null, body: string | null = null): Promise<bigint> {
    const [row] = await db.$queryRaw<{ id: bigint }[]>`
      INSERT INTO "dispatch"."webhook_deliveries" (endpoint_id, event_id, type, task_id, body, status, next_attempt_at, created_at, delivered_at)
      VALUES (${endpointId}, ${randomUUID()}::uuid, 'task.sent', ${taskId}, ${body}, ${status}, ${lastAttempt}, ${lastAttempt}, ${status === 'delivered' ? lastAttempt : null})
      RETURNING id`;
    return row!.id;
  }

  const outboxIds = async () => (await db.outboxMessage.findMany({ select: { id: true } })).map((row) => row.id).sort(byValue);
  const deliveryIds = async () => (await db.webhookDelivery.findMany({ select: { id: true } })).map((row) => row.id).sort(byValue);
  const taskIds = async () => (await db.task.findMany({ select: { id: true } })).map((row) => row.id).sort(byValue);

  /** Writers that keep adding and changing rows none of the prunes may take: recent ones. */
  function concurrentWriters(written: { outbox: bigint[]; tasks: number[]; deliveries: bigint[] }) {
    return [
      async () => {
        const id = await outboxMessage(new Date(), null);
        written.outbox.push(id);
        // Published right away, as the relay would: recent, so kept.
        await db.$executeRaw`UPDATE "dispatch"."outbox_messages" SET published_at = now(), attempts = attempts + 1 WHERE id = ${id}`;
      },
      async () => {
        const id = await task('pending');
        written.tasks.push(id);
        await db.$executeRaw`UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now() WHERE id = ${id}`;
        written.deliveries.push(await delivery('pending', new Date(), id));
      },
    ];
  }

  it('prunes exactly the published outbox messages, finished deliveries and finished tasks past their periods, while others write', async () => {
    const outbox = {
      publishedLongAgo: await outboxMessage(ago(3 * DAY_MS), ago(2 * HOUR_MS)),
      publishedRecently: await outboxMessage(ago(3 * DAY_MS), ago(30 * 60_000)),
      neverPublished: await outboxMessage(ago(3 * DAY_MS), null),
      heldByRelay: await outboxMessage(ago(3 * DAY_MS), ago(2 * HOUR_MS)),
    };
    const tasks = {
      sentLongAgo: await task('sent', { sent: ago(2 * DAY_MS) }),
      failedLongAgo: await task('failed', { failed: ago(2 * DAY_MS) }),
      sentRecently: await task('sent', { sent: ago(HOUR_MS) }),
      failedRecently: await task('failed', { failed: ago(HOUR_MS) }),
      sentLongAgoDeliveredRecently: await task('sent', { sent: ago(2 * DAY_MS), delivered: ago(HOUR_MS) }),
      sentAndDeliveredLongAgo: await task('sent', { sent: ago(3 * DAY_MS), delivered: ago(2 * DAY_MS) }),
      pendingLongAgo: await task('pending', { created: ago(5 * DAY_MS) }),
      claimedLongAgo: await task('claimed', { created: ago(5 * DAY_MS) }),
      // A pending delivery still renders its body from this task at its first attempt.
      sentLongAgoWithPendingDelivery: await task('sent', { sent: ago(2 * DAY_MS) }),
      failedLongAgoWithFinishedDelivery: await task('failed', { failed: ago(2 * DAY_MS) }),
    };
    const deliveries = {
      deliveredLongAgo: await delivery('delivered', ago(2 * HOUR_MS), tasks.failedLongAgoWithFinishedDelivery, '{}'),
      failedLongAgo: await delivery('failed', ago(2 * HOUR_MS)),
      deliveredRecently: await delivery('delivered', ago(30 * 60_000)),
      failedRecently: await delivery('failed', ago(30 * 60_000)),
      pendingLongOverdue: await delivery('pending', ago(2 * DAY_MS), tasks.sentLongAgoWithPendingDelivery),
      pendingNotYetDue: await delivery('pending', new Date(Date.now() + HOUR_MS)),
    };
    // Recipients of a month long over, and of this one; a sticky recipient unused for over a year, and one used today.
    await db.$executeRaw`INSERT INTO "dispatch"."phone_recipients" (phone_id, month, number) VALUES (1, date_trunc('month', now() - interval '3 months')::date, '+381641000001'), (1, date_trunc('month', now())::date, '+381641000001')`;
    await db.$executeRaw`INSERT INTO "dispatch"."sticky_recipients" (client_id, number, phone_id, last_used_at) VALUES (1, '+381641000001', 1, now() - interval '400 days'), (1, '+381641000002', 1, now())`;
    const heldLock = await holdRowsLocked(database.url, 'SELECT id FROM "dispatch"."outbox_messages" WHERE id = $1 FOR UPDATE', [outbox.heldByRelay]);
    const allOutbox = await outboxIds();
    const allTasks = await taskIds();
    const allDeliveries = await deliveryIds();
    const written = { outbox: [] as bigint[], tasks: [] as number[], deliveries: [] as bigint[] };
    const sut = new RetentionPruner('dispatch', db, dispatchPrunes(config), config.retentionIntervalS, SMALL_BATCHES);

    let pruned: Record<string, number>;
    let writes: number;
    try {
      ({ result: pruned, writes } = await whileWriting(concurrentWriters(written), () => sut.pruneOnce()));
    } finally {
      await heldLock.release();
    }

    expect(writes).toBeGreaterThan(0);
    const goneOutbox = [outbox.publishedLongAgo];
    const goneTasks = [tasks.sentLongAgo, tasks.failedLongAgo, tasks.sentAndDeliveredLongAgo, tasks.failedLongAgoWithFinishedDelivery];
    const goneDeliveries = [deliveries.deliveredLongAgo, deliveries.failedLongAgo];
    expect(pruned).toEqual({ 'dispatch.outbox_messages': 1, 'dispatch.webhook_deliveries': 2, 'dispatch.phone_recipients': 1, 'dispatch.sticky_recipients': 1, 'dispatch.tasks': 4 });
    await expect(db.phoneRecipient.count()).resolves.toBe(1);
    await expect(db.stickyRecipient.findMany()).resolves.toEqual([expect.objectContaining({ number: '+381641000002' })]);
    expect(await outboxIds()).toEqual([...allOutbox.filter((id) => !goneOutbox.includes(id)), ...written.outbox].sort(byValue));
    expect(await taskIds()).toEqual([...allTasks.filter((id) => !goneTasks.includes(id)), ...written.tasks].sort(byValue));
    expect(await deliveryIds()).toEqual([...allDeliveries.filter((id) => !goneDeliveries.includes(id)), ...written.deliveries].sort(byValue));

    // The row the relay held was passed over, not waited for; once free, the next run takes it.
    expect(await sut.pruneOnce()).toEqual({ 'dispatch.outbox_messages': 1, 'dispatch.webhook_deliveries': 0, 'dispatch.phone_recipients': 0, 'dispatch.sticky_recipients': 0, 'dispatch.tasks': 0 });
    expect(await db.outboxMessage.findUnique({ where: { id: outbox.heldByRelay } })).toBeNull();
  });

  it('keeps every task for ever when SMSQ_TASK_RETENTION_DAYS is unset', async () => {
    const keptForEver = loadConfig(readDispatchConfig, { DATABASE_URL: database.url });
    const finished = [await task('sent', { sent: ago(400 * DAY_MS), delivered: ago(400 * DAY_MS) }), await task('failed', { failed: ago(400 * DAY_MS) })];
    const sut = new RetentionPruner('dispatch', db, dispatchPrunes(keptForEver), keptForEver.retentionIntervalS);

    expect(await sut.pruneOnce()).toEqual({ 'dispatch.outbox_messages': 0, 'dispatch.webhook_deliveries': 0, 'dispatch.phone_recipients': 0, 'dispatch.sticky_recipients': 0 });
    expect(await taskIds()).toEqual(finished);
  });

  it('lets replicas prune at once: both finish, and together they delete each prunable row once and nothing else', async () => {
    const prunable: bigint[] = [];
    const kept: bigint[] = [];
    await db.$executeRaw`
      INSERT INTO "dispatch"."outbox_messages" (pattern, payload, created_at, published_at)
      SELECT 'billing.refund.v1', '{}'::jsonb, now() - interval '3 days', CASE WHEN n % 3 = 0 THEN NULL ELSE now() - interval '2 hours' - n * interval '1 millisecond' END
        FROM generate_series(1, 1500) AS n`;
    for (const row of await db.outboxMessage.findMany({ select: { id: true, publishedAt: true } })) (row.publishedAt ? prunable : kept).push(row.id);
    const failedTasks = await Promise.all(Array.from({ length: 30 }, () => task('failed', { failed: ago(2 * DAY_MS) })));
    const replicas = [0, 1].map(() => new RetentionPruner('dispatch', db, dispatchPrunes(config), config.retentionIntervalS, { batchRows: 50, maxBatches: 1_000 }));

    const runs = await Promise.all(replicas.map((replica) => replica.pruneOnce()));

    const total = (table: string) => runs.reduce((sum, run) => sum + (run[table] ?? 0), 0);
    expect(total('dispatch.outbox_messages')).toBe(prunable.length);
    expect(total('dispatch.tasks')).toBe(failedTasks.length);
    expect(await outboxIds()).toEqual(kept.sort(byValue));
    expect(await taskIds()).toEqual([]);
    expect(await Promise.all(replicas.map((replica) => replica.pruneOnce()))).toEqual([
      { 'dispatch.outbox_messages': 0, 'dispatch.webhook_deliveries': 0, 'dispatch.phone_recipients': 0, 'dispatch.sticky_recipients': 0, 'dispatch.tasks': 0 },
      { 'dispatch.outbox_messages': 0, 'dispatch.webhook_deliveries': 0, 'dispatch.phone_recipients': 0, 'dispatch.sticky_recipients': 0, 'dispatch.tasks': 0 },
    ]);
  });

  it('stops a run after its bounded number of statements and goes on at the next run', async () => {
    await db.$executeRaw`
      INSERT INTO "dispatch"."outbox_messages" (pattern, payload, published_at)
      SELECT 'billing.refund.v1', '{}'::jsonb, now() - interval '2 hours' FROM generate_series(1, 25)`;
    const sut = new RetentionPruner('dispatch', db, dispatchPrunes(config), config.retentionIntervalS, { batchRows: 10, maxBatches: 2 });

    expect((await sut.pruneOnce())['dispatch.outbox_messages']).toBe(20);
    expect(await db.outboxMessage.count()).toBe(5);
    expect((await sut.pruneOnce())['dispatch.outbox_messages']).toBe(5);
    expect(await db.outboxMessage.count()).toBe(0);
  });
});

function byValue<T extends number | bigint>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
