import { Injectable } from '@nestjs/common';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { WAITING } from '../tasks/waiting-tasks.js';

/**
 * A waiting task failover may move: due, routed by smsq, and held by no phone. A task its lease
 * returned keeps its last holder: that phone may have sent it before its worker went away, and
 * only its worker can ask it (docs/guide/phones.md), so it waits for its phone.
 */
export interface MovableTask {
  id: number;
  clientId: number;
  recipient: string;
}

/** A task (alias `t`) failover may move: waiting, not pinned, held by no phone. */
const MOVABLE = Prisma.sql`${WAITING} AND NOT t.pinned AND t.claimed_by_token_id IS NULL`;

export interface TaskMove {
  id: number;
  to: number;
  /** The SIM on its new phone; null: the phone's default. */
  sim: number | null;
}

/** Phones one sweep looks at, at most; more are taken by the next sweep. */
export const STRANDED_PHONES_AT_MOST = 100;

@Injectable()
export class FailoverRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /**
   * Phones that are not usable (disabled, silent, paused, or at their daily limit) with movable tasks
   * waiting, where another usable phone could take them: one of the same owner (own phones)
   * or any usable gateway. Where nothing could take them the tasks wait, and no sweep looks at them.
   */
  strandedPhones(): Promise<Array<{ id: number }>> {
    return this.db.sql.$queryRaw`
      SELECT p.id FROM "dispatch"."phones" p
       WHERE NOT ${this.conditions.usable('p')}
         AND EXISTS (
           SELECT 1 FROM "dispatch"."tasks" t
            WHERE t.phone_id = p.id AND ${MOVABLE})
         AND EXISTS (
           SELECT 1 FROM "dispatch"."phones" o
            WHERE o.id <> p.id AND o.kind = p.kind AND (p.kind = 'gateway' OR o.client_id = p.client_id) AND ${this.conditions.usable('o')})
       ORDER BY p.id
       LIMIT ${STRANDED_PHONES_AT_MOST}`;
  }

  /**
   * Locks up to `limit` of the phone's movable tasks (`MovableTask`), oldest due first, while the phone is still
   * not usable; tasks another transaction holds (a claim, a cancel, a report) are skipped.
   */
  lockMovable(phoneId: number, limit: number, tx: DbTransaction): Promise<MovableTask[]> {
    return tx.$queryRaw`
      SELECT t.id, t.client_id AS "clientId", t.recipient FROM "dispatch"."tasks" t
       WHERE t.phone_id = ${phoneId} AND ${MOVABLE}
         AND EXISTS (SELECT 1 FROM "dispatch"."phones" p WHERE p.id = ${phoneId} AND NOT ${this.conditions.usable('p')})
       ORDER BY t.scheduled_at, t.id
       LIMIT ${limit}
         FOR UPDATE OF t SKIP LOCKED`;
  }

  /**
   * Moves each task to its new phone in one conditional statement: only while it is still pending
   * on the phone it was taken from, so a task is never on two phones, nor moved once handed out.
   * The first phone is kept; a back-off on the old phone ends. Answers the tasks moved.
   */
  async move(from: number, moves: readonly TaskMove[], tx: DbTransaction): Promise<TaskMove[]> {
    if (moves.length === 0) return [];
    return tx.$queryRaw<TaskMove[]>`
      WITH why AS (
        SELECT CASE WHEN NOT p.active THEN 'phone_disabled' WHEN ${this.conditions.isPaused('p')} THEN 'phone_paused'
                    WHEN NOT ${this.conditions.inContact('p')} THEN 'phone_silent' ELSE 'phone_full' END AS reason
          FROM "dispatch"."phones" p WHERE p.id = ${from}
      )
      UPDATE "dispatch"."tasks" t
         SET phone_id = m.to_phone, sim = m.sim, first_phone_id = COALESCE(t.first_phone_id, t.phone_id), retry_after = NULL,
             rerouted_because = (SELECT reason FROM why)
        FROM unnest(${moves.map((move) => move.id)}::int[], ${moves.map((move) => move.to)}::int[], ${moves.map((move) => move.sim)}::smallint[]) AS m(id, to_phone, sim)
       WHERE t.id = m.id AND t.status = 'pending' AND t.claimed_by_token_id IS NULL AND t.phone_id = ${from}
      RETURNING t.id, t.phone_id AS "to", t.sim`;
  }
}
