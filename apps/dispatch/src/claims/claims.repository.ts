import { Injectable } from '@nestjs/common';
import type { ClaimedTask } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { LOCAL_SCHEDULE } from '../tasks/task-columns.js';
import { NOT_EXPIRED } from '../tasks/waiting-tasks.js';
import { LAST_SEEN_RESOLUTION_MS, type ClaimingPhone, type ClaimScope } from './claim-scope.js';

interface ClaimedRow extends Omit<ClaimedTask, 'claimExpiresAt'> {
  claimExpiresAt: Date;
}

/**
 * Claims are single statements: the due tasks are found and locked with `FOR UPDATE SKIP LOCKED`
 * and updated in the same statement, so concurrent pollers each get different tasks and none
 * waits for another. A claim lapses at the task's expiry at the latest, so a worker that keeps
 * to its claim never sends a task after it expired. Both scopes read the due tasks straight off an index in (scheduled_at, id)
 * order: (phone_id, status, scheduled_at, id) for a bound token, (status, scheduled_at, id) otherwise.
 */
@Injectable()
export class ClaimsRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /** Read before every claim of a bound token, so in SQL rather than through Prisma's query compiler. */
  async findPhone(id: number): Promise<ClaimingPhone | null> {
    const rows = await this.db.sql.$queryRaw<ClaimingPhone[]>`
      SELECT id, kind, active, last_seen_at AS "lastSeenAt" FROM "dispatch"."phones" WHERE id = ${id}`;
    return rows[0] ?? null;
  }

  /** A poll: contact, and the last poll. Conditional, so that many pollers of one phone write it at most once per resolution. */
  async markSeen(phoneId: number): Promise<void> {
    await this.db.sql.$executeRaw`
      UPDATE "dispatch"."phones" SET last_seen_at = now(), last_contact_at = now()
       WHERE id = ${phoneId}
         AND (last_seen_at IS NULL OR last_seen_at < now() - ${LAST_SEEN_RESOLUTION_MS}::int * interval '1 millisecond')`;
  }

  /**
   * A poll of a worker bound to no gateway (Profile B): it serves every enabled gateway, so its
   * polls are their contact. At most once per resolution.
   */
  async markGatewaysContacted(): Promise<void> {
    await this.db.sql.$executeRaw`
      UPDATE "dispatch"."phones" SET last_contact_at = now()
       WHERE kind = 'gateway' AND active AND last_contact_at < now() - ${LAST_SEEN_RESOLUTION_MS}::int * interval '1 millisecond'`;
  }

  /**
   * Claims up to `limit` due tasks in one statement, oldest scheduled first. A phone with a daily
   * limit counts what it is handed on its own row, locked (phones in id order, so batches over many
   * gateways never deadlock) and read as it is once locked: the room it has left is the gate,
   * re-checked under the lock, so concurrent claims never hand out more than the limit. Of a
   * phone's tasks only as many as it has room for are claimed; the rest stay pending. A phone
   * without a limit is not written. A single claim is the case `limit` 1.
   */
  async claimDue(scope: ClaimScope, tokenId: number, claimTimeoutS: number, limit: number): Promise<ClaimedTask[]> {
    const today = this.conditions.localToday('p');
    const rows = await this.db.sql.$queryRaw<ClaimedRow[]>`
      WITH ${this.phoneGate(scope)} next AS (${this.nextDueTasks(scope, limit)}),
      wanted AS (SELECT phone_id, count(*)::int AS n FROM next GROUP BY phone_id),
      room AS (
        SELECT p.id, CASE WHEN p.day_of = ${today} THEN p.day_sends ELSE 0 END AS sends,
               LEAST(w.n, GREATEST(p.daily_limit - CASE WHEN p.day_of = ${today} THEN p.day_sends ELSE 0 END, 0)) AS granted
          FROM "dispatch"."phones" p JOIN wanted w ON w.phone_id = p.id
         WHERE p.daily_limit IS NOT NULL
         ORDER BY p.id
           FOR UPDATE OF p
      ),
      counted AS (
        UPDATE "dispatch"."phones" p SET day_sends = room.sends + room.granted, day_of = ${today}
          FROM room
         WHERE p.id = room.id AND room.granted > 0
      ),
      ranked AS (
        SELECT next.id, row_number() OVER (PARTITION BY next.phone_id ORDER BY next.scheduled_at, next.id) AS place,
               (SELECT room.granted FROM room WHERE room.id = next.phone_id) AS granted
          FROM next
      ),
      claimed AS (
        UPDATE "dispatch"."tasks" t
           SET status = 'claimed',
               attempts = t.attempts + 1,
               claimed_by_token_id = ${tokenId},
               claim_expires_at = LEAST(now() + ${claimTimeoutS}::int * interval '1 second', t.expires_at),
               retry_after = NULL
          FROM ranked, "dispatch"."phones" p
         WHERE t.id = ranked.id AND p.id = t.phone_id AND (ranked.granted IS NULL OR ranked.place <= ranked.granted)
        RETURNING t.id, t.recipient, t.message, t.phone_id AS "phoneId", t.client_id AS "clientId",
                  ${LOCAL_SCHEDULE} AS "scheduledAt", p.url AS "gatewayUrl", t.attempts AS "attempt",
                  t.claim_expires_at AS "claimExpiresAt", p.per_minute AS "perMinute", t.scheduled_at AS due
      )
      SELECT id, recipient, message, "phoneId", "clientId", "scheduledAt", "gatewayUrl", attempt, "claimExpiresAt", "perMinute"
        FROM claimed ORDER BY due, id`;
    return rows.map((row) => ({ ...row, claimExpiresAt: row.claimExpiresAt.toISOString() }));
  }

  /** When the earliest task of the scope that is not due yet will be; null when there is none. */
  async nextDueAt(scope: ClaimScope): Promise<Date | null> {
    const rows =
      scope.phoneId === null
        ? await this.db.sql.$queryRaw<{ scheduledAt: Date }[]>`
            SELECT t.scheduled_at AS "scheduledAt"
              FROM "dispatch"."tasks" t JOIN "dispatch"."phones" p ON p.id = t.phone_id
             WHERE t.status = 'pending' AND t.scheduled_at > now() AND ${NOT_EXPIRED} AND p.active AND p.kind = 'gateway'
             ORDER BY t.scheduled_at, t.id
             LIMIT 1`
        : await this.db.sql.$queryRaw<{ scheduledAt: Date }[]>`
            SELECT t.scheduled_at AS "scheduledAt"
              FROM "dispatch"."tasks" t
             WHERE t.phone_id = ${scope.phoneId} AND t.status = 'pending' AND t.scheduled_at > now() AND ${NOT_EXPIRED}
             ORDER BY t.scheduled_at, t.id
             LIMIT 1`;
    return rows[0]?.scheduledAt ?? null;
  }

  async anyActiveGateway(): Promise<boolean> {
    const rows = await this.db.sql.$queryRaw<{ id: number }[]>`SELECT id FROM "dispatch"."phones" WHERE kind = 'gateway' AND active LIMIT 1`;
    return rows.length > 0;
  }

  /**
   * Puts back a claim its worker never received or never tried, as if it had not been made; only
   * while the token still holds it, or was its last holder and nobody claimed it since its lease
   * returned it (that return kept the attempt counted). Answers the task's phone when something
   * was released.
   */
  async release(id: number, tokenId: number): Promise<number | null> {
    const rows = await this.db.sql.$queryRaw<{ phoneId: number }[]>`
      WITH released AS (
        UPDATE "dispatch"."tasks"
           SET status = 'pending', attempts = GREATEST(attempts - 1, 0), claimed_by_token_id = NULL, claim_expires_at = NULL
         WHERE id = ${id} AND status IN ('claimed', 'pending') AND claimed_by_token_id = ${tokenId}
        RETURNING phone_id
      ), ${uncountToday(this.conditions, 'released')}
      SELECT phone_id AS "phoneId" FROM released`;
    return rows[0]?.phoneId ?? null;
  }

  /**
   * A bound token's phone, locked before any of its tasks, and whether it may be handed tasks now
   * (`open`). Two claims of one phone thus take its tasks one after the other, each the oldest the
   * other left: locked only when counted (below), a later claim that reached the phone first could
   * take the day's last room with younger tasks while an earlier one held the older. Claims never
   * wait on tasks (SKIP LOCKED), so taking the phone first cannot deadlock with a report.
   */
  private phoneGate(scope: ClaimScope): Prisma.Sql {
    if (scope.phoneId === null) return Prisma.empty;
    return Prisma.sql`gate AS (
      SELECT p.active AND NOT ${this.conditions.dayIsFull('p')} AS open FROM "dispatch"."phones" p WHERE p.id = ${scope.phoneId}
         FOR UPDATE
    ),`;
  }

  /**
   * The first `limit` due tasks of the scope that no other transaction holds, locked. A task is due when it
   * is pending, its time (and any retry back-off) has come and its phone is active and has not
   * reached its daily limit. A bound token's phone is the gate's, read once it is locked (an
   * uncorrelated condition: Postgres evaluates it before the scan locks any task); an unbound
   * token (Profile B) takes from gateways only, whose rows are locked only where counted.
   */
  private nextDueTasks(scope: ClaimScope, limit: number): Prisma.Sql {
    if (scope.phoneId === null) {
      return Prisma.sql`
        SELECT t.id, t.phone_id, t.scheduled_at FROM "dispatch"."tasks" t JOIN "dispatch"."phones" p ON p.id = t.phone_id
         WHERE t.status = 'pending' AND t.scheduled_at <= now() AND ${NOT_EXPIRED} AND ${NOT_BACKING_OFF}
           AND p.active AND p.kind = 'gateway' AND NOT ${this.conditions.dayIsFull('p')}
         ORDER BY t.scheduled_at, t.id
         LIMIT ${limit}
           FOR UPDATE OF t SKIP LOCKED`;
    }
    return Prisma.sql`
      SELECT t.id, t.phone_id, t.scheduled_at FROM "dispatch"."tasks" t
       WHERE t.phone_id = ${scope.phoneId} AND t.status = 'pending' AND t.scheduled_at <= now() AND ${NOT_EXPIRED} AND ${NOT_BACKING_OFF}
         AND (SELECT open FROM gate)
       ORDER BY t.scheduled_at, t.id
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`;
  }
}

/**
 * CTE that gives back today's count of a claim that sent nothing (released, or retried by its
 * phone's word) to the phones of the CTE `source` (with `phone_id`).
 */
export function uncountToday(conditions: PhoneConditions, source: string): Prisma.Sql {
  return Prisma.sql`uncounted AS (
    UPDATE "dispatch"."phones" p SET day_sends = GREATEST(p.day_sends - 1, 0)
      FROM ${Prisma.raw(`"${source}"`)} s
     WHERE p.id = s.phone_id AND p.daily_limit IS NOT NULL AND p.day_of = ${conditions.localToday('p')}
  )`;
}

/** A task retried on the same phone waits out its back-off. */
const NOT_BACKING_OFF = Prisma.sql`(t.retry_after IS NULL OR t.retry_after <= now())`;

