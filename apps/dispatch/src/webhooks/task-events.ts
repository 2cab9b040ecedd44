import type { WebhookEventType } from '@smsq/contracts';
import { Prisma } from '../generated/prisma/client.js';

/**
 * CTEs that queue an event of `type` for each task of the CTE `source` (with `id` and
 * `client_id`), one delivery per active endpoint of its client that takes that event, all sharing
 * one event id. Put into the statement that makes the change, or run in its transaction: the
 * event exists exactly when the change does. `name` keeps two such pairs in one statement apart.
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
    )`;
}
