import { Injectable } from '@nestjs/common';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { queueTaskEvents } from '../webhooks/task-events.js';
import { PhoneConditions } from '../phones/phone-conditions.js';
import { LAST_SEEN_RESOLUTION_MS } from './claim-scope.js';
import { uncountToday } from './claims.repository.js';
import type { ReportedTask } from './report-decision.js';

@Injectable()
export class TaskReportsRepository {
  constructor(
    private readonly db: DispatchDatabase,
    private readonly conditions: PhoneConditions,
  ) {}

  /** Runs `work` in one transaction holding the task's row lock, so a report and the lease expiry never interleave. */
  underTaskLock<T>(id: number, work: (task: ReportedTask | null, tx: DbTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      const rows = await tx.$queryRaw<ReportedTask[]>`
        SELECT id, task_key AS "taskKey", client_id AS "clientId", phone_id AS "phoneId", recipient, sim, pinned, attempts,
               status::text AS status, claimed_by_token_id AS "claimedByTokenId", delivered_at AS "deliveredAt"
          FROM "dispatch"."tasks" WHERE id = ${id}
           FOR UPDATE`;
      return work(rows[0] ?? null, tx);
    });
  }

  /**
   * The parts of sealed messages as their workers counted the plaintext, recorded before their
   * `sent` applies: only on a task the token still holds whose parts are still unknown (a late report of a task already failed counts nothing). The phone's count
   * for today, which the claim took as 1 part, takes the difference.
   */
  async recordReportedParts(reports: ReadonlyArray<{ id: number; segments: number }>, tokenId: number): Promise<void> {
    if (reports.length === 0) return;
    await this.db.sql.$executeRaw`
      WITH reported AS (
        UPDATE "dispatch"."tasks" t SET parts = r.parts, parts_known = true
          FROM unnest(${reports.map((report) => report.id)}::int[], ${reports.map((report) => report.segments)}::smallint[]) AS r(id, parts)
         WHERE t.id = r.id AND t.encrypted AND NOT t.parts_known AND t.claimed_by_token_id = ${tokenId} AND t.status IN ('claimed', 'pending')
        RETURNING t.phone_id, r.parts - 1 AS more
      )
      UPDATE "dispatch"."phones" p SET day_sends = p.day_sends + m.more
        FROM (SELECT phone_id, sum(more)::int AS more FROM reported GROUP BY phone_id) AS m
       WHERE p.id = m.phone_id AND p.daily_limit IS NOT NULL AND p.day_of = ${this.conditions.localToday('p')}`;
  }

  /**
   * The usual report, `sent` by the token holding the task, as one statement instead of a
   * transaction of four, for every task of `ids` at once: the same condition `decideReport`
   * applies (its holder, still claimed or pending again after its lease), re-checked by Postgres
   * on each row it locks (in id order, so two batches never deadlock). Answers the tasks it sent; the others are left for the locked path to
   * give the contract's answer.
   */
  async markSentIfHeld(ids: number[], tokenId: number): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.sql.$queryRaw<{ id: number }[]>`
      WITH held AS (
        SELECT id FROM "dispatch"."tasks"
         WHERE id = ANY(${ids}::int[]) AND claimed_by_token_id = ${tokenId} AND status IN ('claimed', 'pending')
         ORDER BY id
           FOR UPDATE
      ), sent AS (
        UPDATE "dispatch"."tasks" t SET status = 'sent', sent_at = now(), claim_expires_at = NULL
          FROM held WHERE t.id = held.id
        RETURNING t.id, t.client_id
      ), ${queueTaskEvents('task.sent', 'sent')}
      SELECT id FROM sent`;
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The usual delivery report, as one statement like `markSentIfHeld`, for every task of `ids`: by
   * its holder, on a task still held (sent now as well) or sent without a delivery report yet.
   * Answers the tasks it applied to, and of those the ones it sent now.
   */
  async markDeliveredIfHeld(ids: number[], tokenId: number): Promise<{ applied: Set<number>; newlySent: Set<number> }> {
    if (ids.length === 0) return { applied: new Set(), newlySent: new Set() };
    // The rows as they were, read under the lock the update takes: were they sent already?
    const rows = await this.db.sql.$queryRaw<{ id: number; newlySent: boolean }[]>`
      WITH held AS (
        SELECT id, status FROM "dispatch"."tasks"
         WHERE id = ANY(${ids}::int[]) AND claimed_by_token_id = ${tokenId}
           AND (status IN ('claimed', 'pending') OR (status = 'sent' AND delivered_at IS NULL))
         ORDER BY id
           FOR UPDATE
      ), delivered AS (
        UPDATE "dispatch"."tasks" t
           SET status = 'sent', sent_at = COALESCE(t.sent_at, now()), delivered_at = now(), claim_expires_at = NULL
          FROM held WHERE t.id = held.id
        RETURNING t.id, t.client_id, held.status <> 'sent' AS newly_sent
      ), newly_sent AS (SELECT id, client_id FROM delivered WHERE newly_sent),
      ${queueTaskEvents('task.sent', 'newly_sent', 'sent_events')},
      ${queueTaskEvents('task.delivered', 'delivered', 'delivered_events')}
      SELECT id, newly_sent AS "newlySent" FROM delivered`;
    return { applied: new Set(rows.map((row) => row.id)), newlySent: new Set(rows.filter((row) => row.newlySent).map((row) => row.id)) };
  }

  async markSent(id: number, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now(), claim_expires_at = NULL WHERE id = ${id}`;
  }

  /** Sends the task if it was not sent yet; the first delivery report's time stands. */
  async markDelivered(id: number, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."tasks"
         SET status = 'sent', sent_at = COALESCE(sent_at, now()), delivered_at = COALESCE(delivered_at, now()), claim_expires_at = NULL
       WHERE id = ${id}`;
  }

  /**
   * Puts a claimed task its phone did not send back in the queue, on phone `to` (and its SIM `sim`):
   * on the same phone it waits `backoffS` first. No phone holds it any more (so failover may move
   * it, and its last holder's repeat of the report finds no task); the first phone is kept; the
   * claim's count towards `from`'s day is given back, and with `attemptBack` its attempt too (the
   * carrier refused the phone, not the task).
   */
  async requeue(id: number, from: number, to: { phoneId: number; sim: number | null }, backoffS: number, attemptBack: boolean, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`
      WITH requeued AS (
        UPDATE "dispatch"."tasks" t
           SET status = 'pending', claim_expires_at = NULL, claimed_by_token_id = NULL, phone_id = ${to.phoneId},
               first_phone_id = CASE WHEN t.phone_id = ${to.phoneId} THEN t.first_phone_id ELSE COALESCE(t.first_phone_id, t.phone_id) END,
               sim = CASE WHEN t.phone_id = ${to.phoneId} THEN t.sim ELSE ${to.sim}::smallint END,
               rerouted_because = CASE WHEN t.phone_id = ${to.phoneId} THEN t.rerouted_because WHEN ${attemptBack} THEN 'phone_paused' ELSE 'retry' END,
               attempts = CASE WHEN ${attemptBack} THEN GREATEST(t.attempts - 1, 0) ELSE t.attempts END,
               retry_after = CASE WHEN t.phone_id = ${to.phoneId} THEN now() + ${backoffS}::int * interval '1 second' END
         WHERE t.id = ${id} AND t.status = 'claimed'
        RETURNING ${from}::int AS phone_id, t.parts
      ), ${uncountToday(this.conditions, 'requeued')}
      SELECT 1`;
  }

  /**
   * The last holder of a task its lease returned says it sent nothing: no phone holds the task
   * any more, and failover may move it.
   */
  async forgetHolder(id: number, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`UPDATE "dispatch"."tasks" SET claimed_by_token_id = NULL WHERE id = ${id} AND status = 'pending'`;
  }

  /** The phone of the task while this token holds it; null otherwise. */
  async phoneHeldBy(id: number, tokenId: number): Promise<number | null> {
    const rows = await this.db.sql.$queryRaw<Array<{ phoneId: number }>>`
      SELECT phone_id AS "phoneId" FROM "dispatch"."tasks" WHERE id = ${id} AND claimed_by_token_id = ${tokenId} AND status IN ('claimed', 'pending')`;
    return rows[0]?.phoneId ?? null;
  }

  /** A report from a token bound to this phone is contact; written at most once per resolution. */
  async markContact(phoneId: number): Promise<void> {
    await this.db.sql.$executeRaw`
      UPDATE "dispatch"."phones" SET last_contact_at = now()
       WHERE id = ${phoneId} AND last_contact_at < now() - ${LAST_SEEN_RESOLUTION_MS}::int * interval '1 millisecond'`;
  }

  async markFailed(id: number, error: string, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."tasks" SET status = 'failed', failed_at = now(), error = ${error}, claim_expires_at = NULL WHERE id = ${id}`;
  }
}
