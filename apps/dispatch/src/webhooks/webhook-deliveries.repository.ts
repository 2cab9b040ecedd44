import { Injectable } from '@nestjs/common';
import type { WEBHOOK_TEST_EVENT, WebhookDeliveryView, WebhookEventType } from '@smsq/contracts';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma, type Task, type WebhookDelivery } from '../generated/prisma/client.js';
import { TASK_COLUMNS } from '../tasks/task-columns.js';

/** A delivery a deliverer took, with what it needs to send it. */
export interface DueDelivery {
  id: bigint;
  endpointId: number;
  url: string;
  secret: string;
  /** The secret before the last rotation, while its grace period lasts. */
  previousSecret: string | null;
  eventId: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  taskId: number | null;
  body: string | null;
  attempts: number;
  createdAt: Date;
}

/** A delivery `d` waiting for its next attempt, which is now. */
const DUE = Prisma.sql`d.status = 'pending' AND d.next_attempt_at <= now()`;

/** What a taken delivery answers, from the delivery `d` and its endpoint `e`. */
const DUE_FIELDS = Prisma.sql`
  d.id, d.endpoint_id AS "endpointId", e.url, e.secret,
  CASE WHEN e.previous_secret_until > now() THEN e.previous_secret END AS "previousSecret",
  d.event_id::text AS "eventId", d.type, d.task_id AS "taskId", d.body, d.attempts, d.created_at AS "createdAt"`;

/**
 * Ends a settle statement whose CTE `settled` answers the settled delivery: when it was still this
 * deliverer's attempt and `leaseS` is given, its endpoint's next due delivery takes its place,
 * leased as `takeDue` leases. In one statement with the settle, so a concurrent `takeDue` never
 * sees the place free and fills it too.
 */
function handOverTo(endpointId: number, leaseS: number | null): Prisma.Sql {
  return Prisma.sql`
    next AS (
      SELECT d.id FROM "dispatch"."webhook_deliveries" d JOIN "dispatch"."webhook_endpoints" e ON e.id = d.endpoint_id AND e.active
       WHERE ${leaseS}::int IS NOT NULL AND EXISTS (SELECT 1 FROM settled)
         AND d.endpoint_id = ${endpointId} AND ${DUE}
       ORDER BY d.next_attempt_at, d.id
       LIMIT 1
         FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "dispatch"."webhook_deliveries" d
       SET next_attempt_at = now() + ${leaseS}::int * interval '1 second', sending_until = now() + ${leaseS}::int * interval '1 second', attempts = d.attempts + 1
      FROM next, "dispatch"."webhook_endpoints" e
     WHERE d.id = next.id AND e.id = d.endpoint_id
    RETURNING ${DUE_FIELDS}`;
}

@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Whether any delivery of an active endpoint is due, in one plain statement (`takeDue` is a transaction of four round trips). */
  async anyDue(): Promise<boolean> {
    const rows = await this.db.sql.$queryRaw<unknown[]>`
      SELECT 1 FROM "dispatch"."webhook_deliveries" d JOIN "dispatch"."webhook_endpoints" e ON e.id = d.endpoint_id AND e.active
       WHERE ${DUE}
       LIMIT 1`;
    return rows.length > 0;
  }

  /**
   * Takes up to `limit` due deliveries of active endpoints in due order (next_attempt_at, id),
   * leaving each endpoint at most `perEndpoint` sends under way over all deliverers, and leases
   * them: their next attempt moves `leaseS` ahead and the attempt is counted before anything is
   * sent, so another deliverer never takes them meanwhile, and one that dies leaves them due again.
   * An endpoint with thousands of due deliveries thus gets no more of a round than any other.
   */
  async takeDue(limit: number, leaseS: number, perEndpoint: number): Promise<DueDelivery[]> {
    return inTransaction(this.db, async (tx) => {
      // Deliverers take one after another, so two never both see an endpoint's free places and fill them twice over.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('dispatch.webhook_deliveries:take', 0))`;
      return tx.$queryRaw<DueDelivery[]>`
        WITH candidates AS (
          SELECT c.id, c.next_attempt_at
            FROM "dispatch"."webhook_endpoints" e
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at FROM "dispatch"."webhook_deliveries" d
              WHERE d.endpoint_id = e.id AND ${DUE}
              ORDER BY d.next_attempt_at, d.id
              LIMIT greatest(${perEndpoint} - (
                SELECT count(*) FROM "dispatch"."webhook_deliveries" s WHERE s.endpoint_id = e.id AND s.sending_until > now() AND s.status = 'pending'
              ), 0)
           ) c
           WHERE e.active
           ORDER BY c.next_attempt_at, c.id
           LIMIT ${limit}
        ), due AS (
          SELECT d.id FROM "dispatch"."webhook_deliveries" d JOIN candidates c ON c.id = d.id
           WHERE ${DUE}
             FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE "dispatch"."webhook_deliveries" d
           SET next_attempt_at = now() + ${leaseS}::int * interval '1 second', sending_until = now() + ${leaseS}::int * interval '1 second', attempts = d.attempts + 1
          FROM due, "dispatch"."webhook_endpoints" e
         WHERE d.id = due.id AND e.id = d.endpoint_id
        RETURNING ${DUE_FIELDS}`;
    });
  }

  /** The task an event is about, as it is now. */
  async taskOf(id: number): Promise<Task | null> {
    const [task] = await this.db.sql.$queryRaw<Task[]>`SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t WHERE t.id = ${id}`;
    return task ?? null;
  }

  /** Fixes the body at the first attempt; a body another deliverer fixed first wins. Answers the body to send. */
  async fixBody(id: bigint, body: string): Promise<string> {
    const rows = await this.db.sql.$queryRaw<{ body: string }[]>`
      UPDATE "dispatch"."webhook_deliveries" SET body = COALESCE(body, ${body}) WHERE id = ${id} RETURNING body`;
    return rows[0]?.body ?? body;
  }

  /** Delivered; answers the delivery handed its place (see `handOverTo`), if any. */
  async markDelivered(delivery: DueDelivery, statusCode: number, handOverLeaseS: number | null = null): Promise<DueDelivery | null> {
    const [next] = await this.db.sql.$queryRaw<DueDelivery[]>`
      WITH settled AS (
        UPDATE "dispatch"."webhook_deliveries"
           SET status = 'delivered', delivered_at = now(), next_attempt_at = now(), sending_until = NULL, last_status_code = ${statusCode}, last_error = NULL
         WHERE id = ${delivery.id} AND status = 'pending' AND attempts = ${delivery.attempts}
        RETURNING id
      ), recovered AS (
        UPDATE "dispatch"."webhook_endpoints" SET failing_since = NULL WHERE id = ${delivery.endpointId} AND failing_since IS NOT NULL
      ), ${handOverTo(delivery.endpointId, handOverLeaseS)}`;
    return next ?? null;
  }

  /**
   * Another attempt at `nextAttemptAt`, or failed for good when there is none. Like
   * `markDelivered`, it settles only the attempt this deliverer made: a later one (the lease ran
   * out and another deliverer took it) is not overwritten.
   */
  async markAttemptFailed(
    delivery: DueDelivery,
    failure: { statusCode: number | null; error: string },
    nextAttemptAt: Date | null,
    handOverLeaseS: number | null = null,
  ): Promise<DueDelivery | null> {
    const [next] = await this.db.sql.$queryRaw<DueDelivery[]>`
      WITH settled AS (
        UPDATE "dispatch"."webhook_deliveries"
           SET status = ${nextAttemptAt ? 'pending' : 'failed'}, next_attempt_at = COALESCE(${nextAttemptAt}::timestamptz, now()),
               sending_until = NULL, last_status_code = ${failure.statusCode}, last_error = ${failure.error}
         WHERE id = ${delivery.id} AND status = 'pending' AND attempts = ${delivery.attempts}
        RETURNING id
      ), failing AS (
        UPDATE "dispatch"."webhook_endpoints" SET failing_since = now() WHERE id = ${delivery.endpointId} AND failing_since IS NULL
      ), ${handOverTo(delivery.endpointId, handOverLeaseS)}`;
    return next ?? null;
  }

  /** Stops sending to an endpoint; its pending deliveries stay, for when it is enabled again. */
  async disableEndpoint(endpointId: number, reason: string): Promise<void> {
    await this.db.sql.$executeRaw`UPDATE "dispatch"."webhook_endpoints" SET active = false, disabled_reason = ${reason} WHERE id = ${endpointId} AND active`;
  }

  /** Disables the endpoints whose every delivery has failed since before `since` and that still have one being retried; answers their ids. */
  async disableFailingSince(since: Date, reason: string): Promise<number[]> {
    const rows = await this.db.sql.$queryRaw<{ id: number }[]>`
      UPDATE "dispatch"."webhook_endpoints" e SET active = false, disabled_reason = ${reason}
       WHERE e.active AND e.failing_since < ${since}
         AND EXISTS (SELECT 1 FROM "dispatch"."webhook_deliveries" d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.attempts > 0)
      RETURNING e.id`;
    return rows.map((row) => row.id);
  }

  /** An endpoint's latest deliveries, newest first. */
  async ofEndpoint(endpointId: number, limit: number): Promise<WebhookDeliveryView[]> {
    return (await this.db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { id: 'desc' }, take: limit })).map(deliveryViewOf);
  }

  /** Due again now, the same event and body; null when the client has no such delivery. */
  async redeliverOfClient(clientId: number, id: bigint): Promise<WebhookDeliveryView | null> {
    const rows = await this.db.sql.$queryRaw<WebhookDelivery[]>`
      UPDATE "dispatch"."webhook_deliveries" d SET status = 'pending', next_attempt_at = now()
        FROM "dispatch"."webhook_endpoints" e
       WHERE d.id = ${id} AND e.id = d.endpoint_id AND e.client_id = ${clientId}
      RETURNING d.id, d.endpoint_id AS "endpointId", d.event_id::text AS "eventId", d.type, d.task_id AS "taskId", d.body, d.status,
                d.attempts, d.next_attempt_at AS "nextAttemptAt", d.last_status_code AS "lastStatusCode", d.last_error AS "lastError",
                d.created_at AS "createdAt", d.delivered_at AS "deliveredAt"`;
    return rows[0] ? deliveryViewOf(rows[0]) : null;
  }

  /** A delivery whose body is already fixed: the test event. */
  async insertFixed(endpointId: number, eventId: string, type: string, body: string): Promise<WebhookDeliveryView> {
    return deliveryViewOf(await this.db.webhookDelivery.create({ data: { endpointId, eventId, type, body } }));
  }

  /** The client's latest task to `recipient` (from `phoneId` when known) sent before the reply came: the one it most likely answers; null when none went out. */
  async latestTaskTo(clientId: number, recipient: string, phoneId: number | null, before: Date): Promise<number | null> {
    const rows = await this.db.sql.$queryRaw<{ id: number }[]>`
      SELECT id FROM "dispatch"."tasks"
       WHERE recipient = ${recipient} AND client_id = ${clientId} AND (${phoneId}::int IS NULL OR phone_id = ${phoneId}::int)
         AND status = 'sent' AND sent_at <= ${before}
       ORDER BY sent_at DESC, id DESC
       LIMIT 1`;
    return rows[0]?.id ?? null;
  }

  /**
   * Queues events whose bodies are fixed already, each for its client's active endpoints that take
   * `type`, in one statement; an event id queued before is not queued again.
   */
  async queueFixed(type: WebhookEventType, events: readonly FixedEvent[], tx?: DbTransaction): Promise<number> {
    if (events.length === 0) return 0;
    return (tx ?? this.db.sql).$executeRaw`
      INSERT INTO "dispatch"."webhook_deliveries" (endpoint_id, event_id, type, task_id, body)
      SELECT e.id, ev.event_id, ${type}, ev.task_id, ev.body
        FROM unnest(${events.map((event) => event.clientId)}::int[], ${events.map((event) => event.eventId)}::uuid[],
                    ${events.map((event) => event.taskId)}::int[], ${events.map((event) => event.body)}::text[]) AS ev(client_id, event_id, task_id, body)
        JOIN "dispatch"."webhook_endpoints" e ON e.client_id = ev.client_id AND e.active AND ${type} = ANY (e.events)
      ON CONFLICT (endpoint_id, event_id) DO NOTHING`;
  }
}

/** An event for one client's endpoints, its body fixed when queued. */
export interface FixedEvent {
  clientId: number;
  eventId: string;
  taskId: number | null;
  body: string;
}

function deliveryViewOf(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: row.id.toString(),
    eventId: row.eventId,
    type: row.type,
    taskId: row.taskId,
    status: row.status as WebhookDeliveryView['status'],
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
  };
}
