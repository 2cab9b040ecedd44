import { Prisma } from '../generated/prisma/client.js';

/**
 * The local `YYYY-MM-DD HH:MM:SS` of a task `t`'s instant, rendered when read in its client's zone,
 * so a change of zone, whenever it lands beside a create, moves every task at once. A client that
 * never changed its zone has no zone row: its tasks show the local time they were created with.
 */
export const LOCAL_SCHEDULE = Prisma.sql`COALESCE(
  to_char(t.scheduled_at AT TIME ZONE (SELECT z.time_zone FROM "dispatch"."client_zones" z WHERE z.client_id = t.client_id), 'YYYY-MM-DD HH24:MI:SS'),
  t.scheduled_local)`;

/** A task row `t` under the names of Prisma's `Task`, for statements written in SQL: every read of a task goes through it. */
export const TASK_COLUMNS = Prisma.sql`t.id, t.task_key AS "taskKey", t.client_id AS "clientId", t.phone_id AS "phoneId", t.recipient, t.message, t.status::text AS status,
  t.scheduled_at AS "scheduledAt", ${LOCAL_SCHEDULE} AS "scheduledLocal", t.attempts, t.claimed_by_token_id AS "claimedByTokenId",
  t.claim_expires_at AS "claimExpiresAt", t.sent_at AS "sentAt", t.delivered_at AS "deliveredAt", t.failed_at AS "failedAt", t.error, t.expires_at AS "expiresAt",
  t.created_at AS "createdAt", t.first_phone_id AS "firstPhoneId", t.pinned, t.retry_after AS "retryAfter",
  t.high_priority AS "highPriority", t.parts, t.sim, t.rerouted_because AS "reroutedBecause", t.encrypted, t.parts_known AS "partsKnown"`;
