import { Injectable } from '@nestjs/common';
import { EXPIRED_ERROR } from '@smsq/contracts';
import type { DbTransaction } from '../database/db-transaction.js';

/** A claim that ran out, as the lease expiry settled it. */
export interface ExpiredClaim {
  id: number;
  taskKey: string;
  phoneId: number;
  /** `pending` again for another attempt, or `failed` for good. */
  status: 'pending' | 'failed';
  attempts: number;
}

/** How long after its expiry a task that was handed out waits for its last holder's report before it ends as expired. */
export const REPORT_GRACE_S = 30;

@Injectable()
export class LeasesRepository {
  /**
   * Settles up to `limit` claims whose lease has run out: back to pending while attempts remain
   * (the attempt stays counted), otherwise failed. Rows another transaction holds (a report under
   * way, another dispatch instance's sweep) are skipped, so instances never collide. The last holder
   * stays recorded until someone claims the task again, so its late report still counts.
   */
  expireClaims(tx: DbTransaction, maxAttempts: number, limit: number): Promise<ExpiredClaim[]> {
    return tx.$queryRaw<ExpiredClaim[]>`
      WITH expired AS (
        -- A claim that lapsed at its task's expiry goes back for the expiry sweep to end as expired.
        SELECT id, (attempts < ${maxAttempts}::int OR expires_at <= now()) AS again FROM "dispatch"."tasks"
         WHERE status = 'claimed' AND claim_expires_at < now()
         ORDER BY claim_expires_at, id
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED
      )
      UPDATE "dispatch"."tasks" t
         SET status = (CASE WHEN expired.again THEN 'pending' ELSE 'failed' END)::"dispatch"."task_status",
             claim_expires_at = NULL,
             failed_at = CASE WHEN expired.again THEN t.failed_at ELSE now() END,
             error = CASE WHEN expired.again THEN t.error ELSE 'no report within the claim timeout after ' || t.attempts || ' attempts' END
        FROM expired
       WHERE t.id = expired.id
      RETURNING t.id, t.task_key AS "taskKey", t.phone_id AS "phoneId", t.status::text AS status, t.attempts`;
  }

  /**
   * Fails up to `limit` tasks still waiting (pending) past their expiry with the error `expired`,
   * skipping rows another transaction holds; claimed tasks are left to their lease, which lapses
   * at the expiry at the latest, and come here once back in the queue.
   */
  expireTasks(tx: DbTransaction, limit: number): Promise<Array<{ id: number; taskKey: string; phoneId: number }>> {
    return tx.$queryRaw`
      WITH expired AS (
        SELECT id FROM "dispatch"."tasks"
         WHERE status = 'pending' AND expires_at <= now()
           -- Once handed out, a task's last holder may still report a send made just before the expiry.
           AND (attempts = 0 OR expires_at <= now() - ${REPORT_GRACE_S}::int * interval '1 second')
         ORDER BY expires_at, id
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED
      )
      UPDATE "dispatch"."tasks" t
         SET status = 'failed', failed_at = now(), error = ${EXPIRED_ERROR}
        FROM expired
       WHERE t.id = expired.id
      RETURNING t.id, t.task_key AS "taskKey", t.phone_id AS "phoneId"`;
  }
}
