import { Injectable } from '@nestjs/common';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { queueTaskEvents } from '../webhooks/task-events.js';
import type { ReportedTask } from './report-decision.js';

@Injectable()
export class TaskReportsRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Runs `work` in one transaction holding the task's row lock, so a report and the lease expiry never interleave. */
  underTaskLock<T>(id: number, work: (task: ReportedTask | null, tx: DbTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, async (tx) => {
      const rows = await tx.$queryRaw<ReportedTask[]>`
        SELECT id, task_key AS "taskKey", status::text AS status, claimed_by_token_id AS "claimedByTokenId", delivered_at AS "deliveredAt"
          FROM "dispatch"."tasks" WHERE id = ${id}
           FOR UPDATE`;
      return work(rows[0] ?? null, tx);
    });
  }

  /**
   * The usual report, `sent` by the token holding the task, as one statement instead of a
   * transaction of four: the same condition `decideReport` applies (its holder, still claimed or
   * pending again after its lease), re-checked by Postgres on the row it locks. False when the
   * condition does not hold, for the locked path to give the contract's answer.
   */
  async markSentIfHeld(id: number, tokenId: number): Promise<boolean> {
    const rows = await this.db.$queryRaw<{ changed: number }[]>`
      WITH sent AS (
        UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now(), claim_expires_at = NULL
         WHERE id = ${id} AND claimed_by_token_id = ${tokenId} AND status IN ('claimed', 'pending')
        RETURNING id, client_id
      ), ${queueTaskEvents('task.sent', 'sent')}
      SELECT count(*)::int AS changed FROM sent`;
    return rows[0]?.changed === 1;
  }

  /**
   * The usual delivery report, as one statement like `markSentIfHeld`: by its holder, on a task
   * still held (sent now as well) or sent without a delivery report yet. Not applied otherwise.
   */
  async markDeliveredIfHeld(id: number, tokenId: number): Promise<{ applied: boolean; newlySent: boolean }> {
    // The row as it was, read under the lock the update takes: was it sent already?
    const rows = await this.db.$queryRaw<{ changed: number; newlySent: number }[]>`
      WITH held AS (
        SELECT id, status FROM "dispatch"."tasks"
         WHERE id = ${id} AND claimed_by_token_id = ${tokenId}
           AND (status IN ('claimed', 'pending') OR (status = 'sent' AND delivered_at IS NULL))
           FOR UPDATE
      ), delivered AS (
        UPDATE "dispatch"."tasks" t
           SET status = 'sent', sent_at = COALESCE(t.sent_at, now()), delivered_at = now(), claim_expires_at = NULL
          FROM held WHERE t.id = held.id
        RETURNING t.id, t.client_id, held.status <> 'sent' AS newly_sent
      ), newly_sent AS (SELECT id, client_id FROM delivered WHERE newly_sent),
      ${queueTaskEvents('task.sent', 'newly_sent', 'sent_events')},
      ${queueTaskEvents('task.delivered', 'delivered', 'delivered_events')}
      SELECT count(*)::int AS changed, count(*) FILTER (WHERE newly_sent)::int AS "newlySent" FROM delivered`;
    return { applied: rows[0]?.changed === 1, newlySent: rows[0]?.newlySent === 1 };
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

  async markFailed(id: number, error: string, tx: DbTransaction): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."tasks" SET status = 'failed', failed_at = now(), error = ${error}, claim_expires_at = NULL WHERE id = ${id}`;
  }
}
