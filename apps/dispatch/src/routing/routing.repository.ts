import { Injectable } from '@nestjs/common';
import type { RoutingMode } from '@smsq/contracts';
import { lockAllUntilCommit } from '../database/advisory-lock.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { lastAssignments } from './last-assignments.js';

/** An active phone a task could be routed to; `clientId` null for a gateway of the shared pool. */
export interface RouteCandidate {
  id: number;
  clientId: number | null;
  /** In contact, not paused and with room left today (`PhoneConditions.usable`): routing takes these first. */
  usable: boolean;
  /** SMS parts it may still be handed today less those of its tasks already waiting; null without a daily limit. */
  room: number | null;
  /** Its monthly recipient cap; null: none. */
  cap: number | null;
  /** Distinct recipients it was given this month, counted only while it has a cap. */
  monthCount: number;
  sims: number;
  /** Its place in least-recently-used order among the candidates read with it (1 the least recently assigned). */
  lruRank: number;
}

/** A gateway pool: a client's VIP gateways, or the shared pool (`null`). */
export type Pool = number | null;

/** A client's routing mode. */
export interface ClientRouting {
  clientId: number;
  mode: RoutingMode;
}

/** A number a client sends to. */
export interface ClientRecipient {
  clientId: number;
  recipient: string;
}

/** The phone (and SIM) a sticky client's recipient is kept on. */
export interface StickyPhone extends ClientRecipient {
  phoneId: number;
  sim: number | null;
}

/** A task assigned to a phone, as its routing is recorded: least recently used, sticky, recipients this month. */
export interface Assignment extends ClientRecipient {
  phoneId: number;
  sim: number | null;
  /** Routed by the client's sticky mode: the recipient is kept on this phone. */
  sticky: boolean;
}

/**
 * The candidates tasks of some clients can be routed to. Routing inside a transaction locks the
 * pools it reads (`lockPools`: a client's own phones or VIP gateways, the shared pool) and then the
 * phones it chose (`lockActive`), so that concurrent assignments see each other's: least recently
 * used, sticky recipients and the month's recipients of capped phones are all written under them.
 */
@Injectable()
export class RoutingRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /** The active own phones of these clients, lowest id first. */
  activeOwnPhones(clientIds: readonly number[], tx?: DbTransaction): Promise<RouteCandidate[]> {
    return (tx ?? this.db.sql).$queryRaw<RouteCandidate[]>`
      SELECT ${this.candidateColumns()} FROM "dispatch"."phones" p
       WHERE p.kind = 'own' AND p.client_id = ANY(${clientIds}::int[]) AND p.active
       ORDER BY p.id`;
  }

  /** The active gateways of these pools, least recently assigned first. */
  activeGateways(pools: readonly Pool[], tx?: DbTransaction): Promise<RouteCandidate[]> {
    const clientIds = pools.filter((pool) => pool !== null);
    return (tx ?? this.db.sql).$queryRaw<RouteCandidate[]>`
      SELECT ${this.candidateColumns()} FROM "dispatch"."phones" p
       WHERE p.kind = 'gateway' AND (p.client_id = ANY(${clientIds}::int[]) OR (${pools.includes(null)} AND p.client_id IS NULL)) AND p.active
       ORDER BY p.last_assigned_at ASC NULLS FIRST, p.id`;
  }

  /** The routing mode of each of these clients that set one other than `first`. */
  routingOf(clientIds: readonly number[], tx?: DbTransaction): Promise<ClientRouting[]> {
    return (tx ?? this.db.sql).$queryRaw<ClientRouting[]>`
      SELECT r.client_id AS "clientId", r.routing_mode AS mode FROM "dispatch"."sending_rules" r
       WHERE r.client_id = ANY(${clientIds}::int[]) AND r.routing_mode <> 'first'`;
  }

  /** The phones sticky clients' recipients are kept on, where the mapping is still alive (used within the client's sticky days). */
  stickyPhonesOf(recipients: readonly ClientRecipient[], tx?: DbTransaction): Promise<StickyPhone[]> {
    if (recipients.length === 0) return Promise.resolve([]);
    return (tx ?? this.db.sql).$queryRaw<StickyPhone[]>`
      SELECT s.client_id AS "clientId", s.number AS recipient, s.phone_id AS "phoneId", s.sim
        FROM "dispatch"."sticky_recipients" s
        JOIN unnest(${recipients.map((one) => one.clientId)}::int[], ${recipients.map((one) => one.recipient)}::text[]) AS a(client_id, number)
          ON s.client_id = a.client_id AND s.number = a.number
        JOIN "dispatch"."sending_rules" r ON r.client_id = s.client_id
       WHERE s.last_used_at > now() - r.sticky_days * interval '1 day'`;
  }

  /** Which of these numbers each capped phone was already given this month, as `phoneId:number`. */
  async knownRecipients(phoneIds: readonly number[], numbers: readonly string[], tx?: DbTransaction): Promise<Set<string>> {
    if (phoneIds.length === 0 || numbers.length === 0) return new Set();
    const rows = await (tx ?? this.db.sql).$queryRaw<Array<{ phoneId: number; number: string }>>`
      SELECT r.phone_id AS "phoneId", r.number FROM "dispatch"."phone_recipients" r JOIN "dispatch"."phones" p ON p.id = r.phone_id
       WHERE r.phone_id = ANY(${phoneIds}::int[]) AND r.number = ANY(${numbers}::text[]) AND r.month = ${this.conditions.localMonth('p')}`;
    return new Set(rows.map((row) => `${row.phoneId}:${row.number}`));
  }

  /**
   * Locks the pools until the transaction commits, in the one order every transaction keeps
   * (clients' pools by id, then the shared pool), so that two never deadlock.
   */
  lockPools(tx: DbTransaction, pools: readonly Pool[]): Promise<void> {
    const ordered = [...pools].sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
    return lockAllUntilCommit(tx, ordered.map((pool) => `dispatch.pool:${pool ?? 'shared'}`));
  }

  /**
   * Records that tasks were just assigned to these phones, in this order, for least-recently-used
   * routing, sticky recipients and recipient caps (as `TasksRepository.insertMany` does for new
   * tasks): tasks moved by failover or a retry count as assigned.
   */
  async recordAssignments(tx: DbTransaction, assignments: readonly Assignment[]): Promise<void> {
    const assigned = lastAssignments(assignments.map((one) => one.phoneId));
    if (assigned.count === 0) return;
    await tx.$executeRaw`
      WITH ${recordedRouting(this.conditions, assignments)}
      UPDATE "dispatch"."phones" p SET last_assigned_at = clock_timestamp() + a.position * interval '1 microsecond'
        FROM ${assigned.rows}
       WHERE p.id = a.id`;
  }

  /** Locks the phones until the transaction commits; answers those still active (a phone disabled meanwhile is left out). */
  async lockActive(tx: DbTransaction, phoneIds: readonly number[]): Promise<number[]> {
    if (phoneIds.length === 0) return [];
    const rows = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM "dispatch"."phones" WHERE id = ANY(${phoneIds}::int[]) AND active ORDER BY id FOR UPDATE`;
    return rows.map((row) => row.id);
  }

  private candidateColumns(): Prisma.Sql {
    return Prisma.sql`p.id, p.client_id AS "clientId", ${this.conditions.usable('p')} AS usable,
      CASE WHEN p.daily_limit IS NULL THEN NULL
           ELSE GREATEST(${this.conditions.roomToday('p')} - (
             SELECT COALESCE(sum(w.parts), 0)::int FROM (SELECT t.parts FROM "dispatch"."tasks" t WHERE t.phone_id = p.id AND t.status = 'pending' LIMIT p.daily_limit) AS w), 0) END AS room,
      p.monthly_recipients AS cap,
      CASE WHEN p.monthly_recipients IS NULL THEN 0
           ELSE (SELECT count(*)::int FROM "dispatch"."phone_recipients" r WHERE r.phone_id = p.id AND r.month = ${this.conditions.localMonth('p')}) END AS "monthCount",
      p.sims::int AS sims, (row_number() OVER (ORDER BY p.last_assigned_at ASC NULLS FIRST, p.id))::int AS "lruRank"`;
  }
}

/**
 * CTEs that record assignments besides least-recently-used: the sticky
 * recipients' phones (the latest of a number in the batch wins) and each phone's recipients of the
 * month (every phone's, so that a cap set mid-month counts the whole month, and the views can show
 * them). Written in the statement of the assignment itself.
 */
export function recordedRouting(conditions: PhoneConditions, assignments: readonly Assignment[]): Prisma.Sql {
  const sticky = assignments.map((_, position) => position).filter((position) => assignments[position]!.sticky);
  const column = <T>(read: (one: Assignment) => T, positions: readonly number[]) => positions.map((position) => read(assignments[position]!));
  const all = assignments.map((_, position) => position);
  return Prisma.sql`stuck AS (
      INSERT INTO "dispatch"."sticky_recipients" AS s (client_id, number, phone_id, sim, last_used_at)
      SELECT DISTINCT ON (n.client_id, n.number) n.client_id, n.number, n.phone_id, n.sim, now()
        FROM unnest(${column((one) => one.clientId, sticky)}::int[], ${column((one) => one.recipient, sticky)}::text[],
                    ${column((one) => one.phoneId, sticky)}::int[], ${column((one) => one.sim, sticky)}::smallint[])
             WITH ORDINALITY AS n(client_id, number, phone_id, sim, position)
       ORDER BY n.client_id, n.number, n.position DESC
      ON CONFLICT (client_id, number) DO UPDATE SET phone_id = EXCLUDED.phone_id, sim = EXCLUDED.sim, last_used_at = EXCLUDED.last_used_at
    ), capped AS (
      INSERT INTO "dispatch"."phone_recipients" (phone_id, month, number)
      SELECT DISTINCT n.phone_id, ${conditions.localMonth('p')}, n.number
        FROM unnest(${column((one) => one.phoneId, all)}::int[], ${column((one) => one.recipient, all)}::text[]) AS n(phone_id, number)
        JOIN "dispatch"."phones" p ON p.id = n.phone_id
      ON CONFLICT DO NOTHING
    )`;
}
