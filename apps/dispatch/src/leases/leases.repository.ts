import { Injectable } from '@nestjs/common';
import { EXPIRED_ERROR } from '@smsq/contracts';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';

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

/** A claim whose lease ran out. */
const LAPSED_CLAIM = Prisma.sql`status = 'claimed' AND claim_expires_at < now()`;

/** A task still waiting past its expiry; once handed out, its last holder may still report a send made just before the expiry. */
const EXPIRED_WAITING = Prisma.sql`status = 'pending' AND expires_at <= now()
  AND (attempts = 0 OR expires_at <= now() - ${REPORT_GRACE_S}::int * interval '1 second')`;

@Injectable()
export class LeasesRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /**
   * Whether any lease ran out, in one plain statement: most sweeps find none, and opening a
   * transaction to settle nothing took three round trips every second.
   */
  anyLapsedClaim(): Promise<boolean> {
    return this.exists(LAPSED_CLAIM);
  }

  /** Whether any task waits past its expiry (the same look as `anyLapsedClaim`). */
  anyExpiredTask(): Promise<boolean> {
    return this.exists(EXPIRED_WAITING);
  }

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
         WHERE ${LAPSED_CLAIM}
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
         WHERE ${EXPIRED_WAITING}
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

  private async exists(condition: Prisma.Sql): Promise<boolean> {
    const rows = await this.db.sql.$queryRaw<unknown[]>`SELECT 1 FROM "dispatch"."tasks" WHERE ${condition} LIMIT 1`;
    return rows.length > 0;
  }
}
