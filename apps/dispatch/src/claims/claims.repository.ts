import { Injectable } from '@nestjs/common';
import type { ClaimedTask } from '@smsq/contracts';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { LOCAL_SCHEDULE } from '../tasks/task-columns.js';
import { NOT_EXPIRED, WAITING } from '../tasks/waiting-tasks.js';
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
   * Claims up to `limit` due tasks in one statement, high priority first, then oldest scheduled
   * first. A phone with a daily limit counts the SMS parts it is handed on its own row, locked
   * (phones in id order, so batches over many gateways never deadlock) and read as it is once
   * locked: the room it has left is the gate, re-checked under the lock, so concurrent claims
   * never hand out more than the limit. A phone's tasks are taken in order while their parts fit
   * in its room; one that does not fit is passed by (a smaller one after it may still fit) and stays
   * pending. A phone without a limit is not written. A normal
   * task of a client whose send windows are closed now is not due; a high-priority one is. A
   * single claim is the case `limit` 1.
   */
  async claimDue(scope: ClaimScope, tokenId: number, claimTimeoutS: number, limit: number): Promise<ClaimedTask[]> {
    const today = this.conditions.localToday('p');
    const rows = await this.db.sql.$queryRaw<ClaimedRow[]>`
      WITH RECURSIVE ${this.closedWindows(scope)} ${this.phoneGate(scope)}
      ${this.lookAhead(scope, limit)}
      next_high AS (${this.nextDueTasks(scope, true)}),
      next_normal AS (${this.nextDueTasks(scope, false)}),
      next AS (
        SELECT n.* FROM (SELECT * FROM next_high UNION ALL SELECT * FROM next_normal) AS n
         ORDER BY n.high_priority DESC, n.scheduled_at, n.id
         LIMIT (SELECT n FROM wanted)
      ),
      room AS (
        SELECT p.id, CASE WHEN p.day_of = ${today} THEN p.day_sends ELSE 0 END AS sends, ${this.conditions.roomToday('p')} AS room
          FROM "dispatch"."phones" p
         WHERE p.daily_limit IS NOT NULL AND p.id IN (SELECT phone_id FROM next)
         ORDER BY p.id
           FOR UPDATE OF p
      ),
      ordered AS (
        SELECT next.id, next.phone_id, next.parts, (SELECT room.room FROM room WHERE room.id = next.phone_id) AS room,
               row_number() OVER (PARTITION BY next.phone_id ORDER BY next.high_priority DESC, next.scheduled_at, next.id) AS place
          FROM next
      ),
      fitted (id, phone_id, place, used, fits) AS (
        SELECT o.id, o.phone_id, o.place, CASE WHEN o.room IS NULL OR o.parts <= o.room THEN o.parts ELSE 0 END, o.room IS NULL OR o.parts <= o.room
          FROM ordered o WHERE o.place = 1
        UNION ALL
        SELECT o.id, o.phone_id, o.place, f.used + CASE WHEN o.room IS NULL OR f.used + o.parts <= o.room THEN o.parts ELSE 0 END, o.room IS NULL OR f.used + o.parts <= o.room
          FROM fitted f JOIN ordered o ON o.phone_id = f.phone_id AND o.place = f.place + 1
      ),
      granted AS (
        SELECT o.id, o.phone_id, o.parts FROM fitted f JOIN ordered o ON o.id = f.id JOIN next ON next.id = o.id
         WHERE f.fits
         ORDER BY next.high_priority DESC, next.scheduled_at, next.id
         LIMIT ${limit}
      ),
      counted AS (
        UPDATE "dispatch"."phones" p SET day_sends = room.sends + g.parts, day_of = ${today}
          FROM room, (SELECT phone_id, sum(parts)::int AS parts FROM granted GROUP BY phone_id) AS g
         WHERE p.id = room.id AND g.phone_id = room.id
      ),
      claimed AS (
        UPDATE "dispatch"."tasks" t
           SET status = 'claimed',
               attempts = t.attempts + 1,
               claimed_by_token_id = ${tokenId},
               claim_expires_at = LEAST(now() + ${claimTimeoutS}::int * interval '1 second', t.expires_at),
               retry_after = NULL
          FROM granted, "dispatch"."phones" p
         WHERE t.id = granted.id AND p.id = t.phone_id
        RETURNING t.id, t.recipient, t.message, t.phone_id AS "phoneId", t.client_id AS "clientId",
                  ${LOCAL_SCHEDULE} AS "scheduledAt", p.url AS "gatewayUrl", t.attempts AS "attempt",
                  t.claim_expires_at AS "claimExpiresAt", p.per_minute AS "perMinute", p.jitter, t.sim, t.parts::int AS parts, t.encrypted,
                  t.high_priority, t.scheduled_at AS due
      )
      SELECT id, recipient, message, "phoneId", "clientId", "scheduledAt", "gatewayUrl", attempt, "claimExpiresAt", "perMinute", jitter, sim, parts, encrypted
        FROM claimed ORDER BY high_priority DESC, due, id`;
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

  /**
   * What holds a bound token's due tasks back, when some wait: the end of its phone's pause, and
   * its client's send windows (null when it has none). Undefined when no task waits for the phone.
   */
  async holdOf(phoneId: number): Promise<{ pausedUntil: Date | null; windowMinutes: number[] | null; timeZone: string | null } | undefined> {
    const rows = await this.db.sql.$queryRaw<Array<{ pausedUntil: Date | null; windowMinutes: number[] | null; timeZone: string | null }>>`
      SELECT CASE WHEN ${this.conditions.isPaused('p')} THEN p.paused_until END AS "pausedUntil", r.window_minutes AS "windowMinutes", r.time_zone AS "timeZone"
        FROM "dispatch"."phones" p
        LEFT JOIN "dispatch"."sending_rules" r ON r.client_id = p.client_id AND cardinality(r.window_minutes) > 0
       WHERE p.id = ${phoneId} AND EXISTS (SELECT 1 FROM "dispatch"."tasks" t WHERE t.phone_id = p.id AND ${WAITING})`;
    return rows[0];
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
        RETURNING phone_id, parts
      ), ${uncountToday(this.conditions, 'released')}
      SELECT phone_id AS "phoneId" FROM released`;
    return rows[0]?.phoneId ?? null;
  }

  /**
   * How many due tasks a claim of `limit` looks at (`wanted.n`): `limit`, and a few more where a
   * daily limit may have to pass by a task whose parts do not fit (a bound token's phone with a
   * limit, or for an unbound token any active gateway with one), so that a long message never holds
   * up the shorter ones behind it. Each task looked at is locked until the claim commits.
   */
  private lookAhead(scope: ClaimScope, limit: number): Prisma.Sql {
    const limited =
      scope.phoneId === null
        ? Prisma.sql`EXISTS (SELECT 1 FROM "dispatch"."phones" p WHERE p.kind = 'gateway' AND p.active AND p.daily_limit IS NOT NULL)`
        : Prisma.sql`(SELECT p.daily_limit IS NOT NULL FROM "dispatch"."phones" p WHERE p.id = ${scope.phoneId})`;
    return Prisma.sql`wanted AS MATERIALIZED (SELECT ${limit}::int + CASE WHEN ${limited} THEN ${PASSED_BY_AT_MOST}::int ELSE 0 END AS n),`;
  }

  /**
   * The clients whose send windows are closed now (`closed.clients`): their normal tasks wait. A
   * bound token's phone of a client (own phones, VIP gateways) reads that client's rules alone; a
   * shared gateway, or an unbound token, every client's that has windows.
   */
  private closedWindows(scope: ClaimScope): Prisma.Sql {
    const whose =
      scope.phoneId === null
        ? Prisma.sql`TRUE`
        : Prisma.sql`r.client_id = COALESCE((SELECT p.client_id FROM "dispatch"."phones" p WHERE p.id = ${scope.phoneId}), r.client_id)`;
    return Prisma.sql`closed AS MATERIALIZED (
      SELECT COALESCE(array_agg(r.client_id), '{}'::int[]) AS clients FROM "dispatch"."sending_rules" r
       WHERE cardinality(r.window_minutes) > 0 AND ${whose} AND NOT ${windowOpen('r')}
    ),`;
  }

  /**
   * A bound token's phone, locked before any of its tasks, whether it may be handed tasks now
   * (`open`: enabled, room left today, not paused), and whether its client's window lets normal
   * tasks out (`in_window`; a shared gateway's tasks are checked each against its own client's).
   * Two claims of one phone thus take its tasks one after the other, each the oldest the other
   * left: locked only when counted (below), a later claim that reached the phone first could take
   * the day's last room with younger tasks while an earlier one held the older. Claims never wait
   * on tasks (SKIP LOCKED), so taking the phone first cannot deadlock with a report.
   */
  private phoneGate(scope: ClaimScope): Prisma.Sql {
    if (scope.phoneId === null) return Prisma.empty;
    return Prisma.sql`gate AS (
      SELECT p.active AND NOT ${this.conditions.dayIsFull('p')} AND NOT ${this.conditions.isPaused('p')} AS open,
             p.client_id IS NULL OR p.client_id <> ALL((SELECT clients FROM closed)::int[]) AS in_window
        FROM "dispatch"."phones" p WHERE p.id = ${scope.phoneId}
         FOR UPDATE
    ),`;
  }

  /**
   * The first `limit` due tasks of the scope, of one priority, that no other transaction holds,
   * locked. A task is due when it is pending, its time (and any retry back-off) has come, its phone
   * is active, not paused and has not reached its daily limit, and, if it is a normal one, its
   * client's send window is open. A bound token's phone is the gate's, read once it is locked
   * (uncorrelated conditions: Postgres evaluates them before the scan locks any task); an unbound
   * token (Profile B) takes from gateways only, whose rows are locked only where counted.
   */
  private nextDueTasks(scope: ClaimScope, high: boolean): Prisma.Sql {
    const priority = high ? Prisma.sql`t.high_priority` : Prisma.sql`NOT t.high_priority AND t.client_id <> ALL((SELECT clients FROM closed)::int[])`;
    if (scope.phoneId === null) {
      return Prisma.sql`
        SELECT t.id, t.phone_id, t.scheduled_at, t.parts, t.high_priority FROM "dispatch"."tasks" t JOIN "dispatch"."phones" p ON p.id = t.phone_id
         WHERE t.status = 'pending' AND ${priority} AND t.scheduled_at <= now() AND ${NOT_EXPIRED} AND ${NOT_BACKING_OFF}
           AND p.active AND p.kind = 'gateway' AND NOT ${this.conditions.dayIsFull('p')} AND NOT ${this.conditions.isPaused('p')}
         ORDER BY t.scheduled_at, t.id
         LIMIT (SELECT n FROM wanted)
           FOR UPDATE OF t SKIP LOCKED`;
    }
    return Prisma.sql`
      SELECT t.id, t.phone_id, t.scheduled_at, t.parts, t.high_priority FROM "dispatch"."tasks" t
       WHERE t.phone_id = ${scope.phoneId} AND t.status = 'pending' AND ${priority} AND t.scheduled_at <= now() AND ${NOT_EXPIRED} AND ${NOT_BACKING_OFF}
         AND (SELECT open FROM gate) ${high ? Prisma.empty : Prisma.sql`AND (SELECT in_window FROM gate)`}
       ORDER BY t.scheduled_at, t.id
       LIMIT (SELECT n FROM wanted)
         FOR UPDATE SKIP LOCKED`;
  }
}

/**
 * CTE that gives back today's count of a claim that sent nothing (released, or retried by its
 * phone's word) to the phone of the CTE `source` (one row, with `phone_id` and the task's `parts`).
 */
export function uncountToday(conditions: PhoneConditions, source: string): Prisma.Sql {
  return Prisma.sql`uncounted AS (
    UPDATE "dispatch"."phones" p SET day_sends = GREATEST(p.day_sends - s.parts, 0)
      FROM ${Prisma.raw(`"${source}"`)} s
     WHERE p.id = s.phone_id AND p.daily_limit IS NOT NULL AND p.day_of = ${conditions.localToday('p')}
  )`;
}

/**
 * Whether the send windows of the rules row `alias` are open now in its zone: the minute of the
 * week (Monday 00:00 is 0) falls in one of its `[start, end)` pairs (`weekMinutesOf`).
 */
export function windowOpen(alias: string): Prisma.Sql {
  const rules = Prisma.raw(alias);
  return Prisma.sql`EXISTS (
    SELECT 1 FROM (SELECT now() AT TIME ZONE ${rules}.time_zone AS at) AS l, generate_subscripts(${rules}.window_minutes, 1) AS i
     WHERE i % 2 = 1
       AND ((extract(isodow FROM l.at)::int - 1) * 1440 + extract(hour FROM l.at)::int * 60 + extract(minute FROM l.at)::int)
           BETWEEN ${rules}.window_minutes[i] AND ${rules}.window_minutes[i + 1] - 1)`;
}

/** Tasks a claim of a phone with a daily limit may pass by, at most, because their parts do not fit its room. */
const PASSED_BY_AT_MOST = 10;

/** A task retried on the same phone waits out its back-off. */
const NOT_BACKING_OFF = Prisma.sql`(t.retry_after IS NULL OR t.retry_after <= now())`;

