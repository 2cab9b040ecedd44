import { Injectable } from '@nestjs/common';
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
        SELECT id FROM "dispatch"."tasks"
         WHERE status = 'claimed' AND claim_expires_at < now()
         ORDER BY claim_expires_at, id
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED
      )
      UPDATE "dispatch"."tasks" t
         SET status = (CASE WHEN t.attempts < ${maxAttempts}::int THEN 'pending' ELSE 'failed' END)::"dispatch"."task_status",
             claim_expires_at = NULL,
             failed_at = CASE WHEN t.attempts < ${maxAttempts}::int THEN t.failed_at ELSE now() END,
             error = CASE WHEN t.attempts < ${maxAttempts}::int THEN t.error
                          ELSE 'no report within the claim timeout after ' || t.attempts || ' attempts' END
        FROM expired
       WHERE t.id = expired.id
      RETURNING t.id, t.task_key AS "taskKey", t.phone_id AS "phoneId", t.status::text AS status, t.attempts`;
  }
}
