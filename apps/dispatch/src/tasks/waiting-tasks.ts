import { Prisma } from '../generated/prisma/client.js';

/** A task (alias `t`) past its expiry is never handed out, even before the expiry sweep has failed it. */
export const NOT_EXPIRED = Prisma.sql`(t.expires_at IS NULL OR t.expires_at > now())`;

/** A task (alias `t`) waiting for its phone now: pending, its time come, not expired. */
export const WAITING = Prisma.sql`t.status = 'pending' AND t.scheduled_at <= now() AND ${NOT_EXPIRED}`;

/** The tasks waiting for the phone (alias `p`), counted up to `atMost`: off the (phone_id, status, scheduled_at) index, bounded whatever the backlog. */
export function waitingCountOf(atMost: number): Prisma.Sql {
  return Prisma.sql`(SELECT count(*)::int FROM (SELECT 1 FROM "dispatch"."tasks" t WHERE t.phone_id = p.id AND ${WAITING} LIMIT ${atMost}) AS due)`;
}
