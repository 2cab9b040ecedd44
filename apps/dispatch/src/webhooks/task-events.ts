import { Patterns, RECEIPT_EVENTS, type WebhookEventType } from '@smsq/contracts';
import { Prisma } from '../generated/prisma/client.js';

const RECEIPT_EVENT_TYPES: readonly string[] = RECEIPT_EVENTS;

/**
 * CTEs that queue an event of `type` for each task of the CTE `source` (with `id` and
 * `client_id`), one delivery per active endpoint of its client that takes that event, all sharing
 * one event id. Put into the statement that makes the change, or run in its transaction: the
 * event exists exactly when the change does. `name` keeps two such pairs in one statement apart.
 * A task an SMPP client asked a delivery receipt for also gets its event relayed to the SMPP
 * service through the outbox, once per event.
 */
export function queueTaskEvents(type: WebhookEventType, source: string, name = 'events'): Prisma.Sql {
  const from = Prisma.raw(`"${source}"`);
  const evented = Prisma.raw(`"${name}_with_ids"`);
  return Prisma.sql`${evented} AS MATERIALIZED (SELECT id, client_id, gen_random_uuid() AS event_id FROM ${from}),
    ${Prisma.raw(`"${name}_queued"`)} AS (
      INSERT INTO "dispatch"."webhook_deliveries" (endpoint_id, event_id, type, task_id)
      SELECT e.id, ev.event_id, ${type}, ev.id
        FROM ${evented} ev
        JOIN "dispatch"."webhook_endpoints" e ON e.client_id = ev.client_id AND e.active AND ${type} = ANY (e.events)
    )${RECEIPT_EVENT_TYPES.includes(type) ? receiptsRelayed(type, evented, name) : Prisma.empty}`;
}

function receiptsRelayed(type: WebhookEventType, evented: Prisma.Sql, name: string): Prisma.Sql {
  return Prisma.sql`,
    ${Prisma.raw(`"${name}_receipts"`)} AS (
      INSERT INTO "dispatch"."outbox_messages" (pattern, payload)
      SELECT ${Patterns.smpp.taskEnded}, jsonb_build_object('taskId', ev.id, 'clientId', ev.client_id, 'event', ${type}::text, 'at', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        FROM ${evented} ev
        JOIN "dispatch"."tasks" t ON t.id = ev.id AND t.receipts
    )`;
}
