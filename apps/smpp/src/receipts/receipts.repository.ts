import { Injectable } from '@nestjs/common';
import type { ReceiptEvent } from '@smsq/contracts';
import { SmppDatabase } from '../database/smpp-database.js';

/** A receipt taken for delivery, with what its deliver_sm says. */
export interface DueReceipt {
  taskId: number;
  event: ReceiptEvent;
  clientId: number;
  at: Date;
  attempts: number;
  sourceAddr: string;
  destinationAddr: string;
  textHead: string;
  submittedAt: Date;
}

@Injectable()
export class ReceiptsRepository {
  constructor(private readonly db: SmppDatabase) {}

  /**
   * Keeps a receipt until a receiver takes it; the same task and event again (a relay's repeat) is
   * kept once. A final one (DELIVRD, UNDELIV…) takes the place of the task's ACCEPTD if that still
   * waits, and an ACCEPTD relayed after the final one is not kept: a client never hears "accepted"
   * after the end, whatever order the two were relayed in.
   */
  async keep(receipt: { taskId: number; event: ReceiptEvent; clientId: number; at: Date }): Promise<void> {
    if (receipt.event === 'task.sent') {
      await this.db.$executeRaw`
        INSERT INTO "smpp"."receipts" (task_id, event, client_id, at)
        SELECT ${receipt.taskId}, ${receipt.event}, ${receipt.clientId}, ${receipt.at}
         WHERE NOT EXISTS (SELECT 1 FROM "smpp"."submissions" s WHERE s.task_id = ${receipt.taskId} AND s.final_event IS NOT NULL)
        ON CONFLICT DO NOTHING`;
      return;
    }
    await this.db.$transaction([
      this.db.$executeRaw`UPDATE "smpp"."submissions" SET final_event = ${receipt.event} WHERE task_id = ${receipt.taskId} AND final_event IS NULL`,
      this.db.$executeRaw`DELETE FROM "smpp"."receipts" WHERE task_id = ${receipt.taskId} AND event = 'task.sent' AND next_attempt_at <= now()`,
      this.db.$executeRaw`INSERT INTO "smpp"."receipts" (task_id, event, client_id, at) VALUES (${receipt.taskId}, ${receipt.event}, ${receipt.clientId}, ${receipt.at}) ON CONFLICT DO NOTHING`,
    ]);
  }

  /**
   * Takes up to `limit` due receipts of these clients, oldest first (a task's ACCEPTD before its
   * DELIVRD), and leases them for `leaseS`: another replica (or this one's next round) passes them
   * over until then, and a replica that dies leaves them due again.
   */
  async takeDue(clientIds: readonly number[], limit: number, leaseS: number): Promise<DueReceipt[]> {
    if (clientIds.length === 0) return [];
    return this.db.$queryRaw<DueReceipt[]>`
      WITH due AS (
        SELECT r.task_id, r.event FROM "smpp"."receipts" r
         WHERE r.client_id = ANY (${[...clientIds]}::int[]) AND r.next_attempt_at <= now()
         ORDER BY r.created_at, r.task_id, r.at
         LIMIT ${limit}
           FOR UPDATE SKIP LOCKED
      ), leased AS (
        UPDATE "smpp"."receipts" r SET next_attempt_at = now() + ${leaseS}::int * interval '1 second', attempts = r.attempts + 1
          FROM due WHERE r.task_id = due.task_id AND r.event = due.event
        RETURNING r.task_id, r.event, r.client_id, r.at, r.attempts, r.created_at
      )
      SELECT l.task_id AS "taskId", l.event, l.client_id AS "clientId", l.at, l.attempts,
             coalesce(s.source_addr, '') AS "sourceAddr", coalesce(s.destination_addr, '') AS "destinationAddr",
             coalesce(s.text_head, '') AS "textHead", coalesce(s.submitted_at, l.at) AS "submittedAt"
        -- A submission whose row was never written (its service died in between) still gets its receipt, with less said.
        FROM leased l LEFT JOIN "smpp"."submissions" s ON s.task_id = l.task_id
       ORDER BY l.created_at, l.task_id, l.at`;
  }

  /** Taken by the receiver: done with. */
  async delivered(taskId: number, event: ReceiptEvent): Promise<void> {
    await this.db.receipt.deleteMany({ where: { taskId, event } });
  }

  /** Not taken this time: due again after `delayS`. */
  async retryLater(taskId: number, event: ReceiptEvent, delayS: number): Promise<void> {
    await this.db.$executeRaw`UPDATE "smpp"."receipts" SET next_attempt_at = now() + ${delayS}::int * interval '1 second' WHERE task_id = ${taskId} AND event = ${event}`;
  }

  /** Back in the queue at once: its receiver went away before the attempt. */
  async release(taskId: number, event: ReceiptEvent): Promise<void> {
    await this.db.$executeRaw`UPDATE "smpp"."receipts" SET next_attempt_at = now(), attempts = greatest(attempts - 1, 0) WHERE task_id = ${taskId} AND event = ${event}`;
  }

  waiting(): Promise<number> {
    return this.db.receipt.count();
  }
}
