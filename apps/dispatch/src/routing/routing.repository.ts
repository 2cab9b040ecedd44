import { Injectable } from '@nestjs/common';
import { lockAllUntilCommit } from '../database/advisory-lock.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { lastAssignments } from './last-assignments.js';

/** An active phone a task could be routed to; `clientId` null for a gateway of the shared pool. */
export interface RouteCandidate {
  id: number;
  clientId: number | null;
  /** In contact and with room left today (`PhoneConditions.usable`): routing takes these first. */
  usable: boolean;
}

/** A gateway pool: a client's VIP gateways, or the shared pool (`null`). */
export type Pool = number | null;

/**
 * The candidates tasks of some clients can be routed to. Routing inside a transaction locks the
 * pools it reads (`lockPools`) and then the phones it chose (`lockActive`), so that concurrent
 * assignments see each other's `last_assigned_at` and least-recently-used really takes turns.
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
      SELECT p.id, p.client_id AS "clientId", ${this.conditions.usable('p')} AS usable FROM "dispatch"."phones" p
       WHERE p.kind = 'own' AND p.client_id = ANY(${clientIds}::int[]) AND p.active
       ORDER BY p.id`;
  }

  /** The active gateways of these pools, least recently assigned first. */
  activeGateways(pools: readonly Pool[], tx?: DbTransaction): Promise<RouteCandidate[]> {
    const clientIds = pools.filter((pool) => pool !== null);
    return (tx ?? this.db.sql).$queryRaw<RouteCandidate[]>`
      SELECT p.id, p.client_id AS "clientId", ${this.conditions.usable('p')} AS usable FROM "dispatch"."phones" p
       WHERE p.kind = 'gateway' AND (p.client_id = ANY(${clientIds}::int[]) OR (${pools.includes(null)} AND p.client_id IS NULL)) AND p.active
       ORDER BY p.last_assigned_at ASC NULLS FIRST, p.id`;
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
   * routing (as `TasksRepository.insertMany` does for new tasks): tasks moved by failover or a retry count as assigned.
   */
  async recordAssignments(tx: DbTransaction, phoneIds: readonly number[]): Promise<void> {
    const assigned = lastAssignments(phoneIds);
    if (assigned.count === 0) return;
    await tx.$executeRaw`
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
}
