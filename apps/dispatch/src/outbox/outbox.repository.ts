import { Injectable } from '@nestjs/common';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { WebhookEventType } from '@smsq/contracts';
import type { Prisma } from '../generated/prisma/client.js';
import { queueTaskEvents } from '../webhooks/task-events.js';

/** A message to another service, stored with the change it belongs to. */
export interface OutboxDraft {
  pattern: string;
  payload: Prisma.InputJsonObject;
}

export interface OutboxEntry {
  id: bigint;
  pattern: string;
  payload: unknown;
  attempts: number;
}

@Injectable()
export class OutboxRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Must be given the transaction of the change: the message exists exactly when the change does. */
  async enqueue(tx: DbTransaction, messages: readonly OutboxDraft[]): Promise<void> {
    if (messages.length === 0) return;
    await tx.outboxMessage.createMany({ data: messages.map(({ pattern, payload }) => ({ pattern, payload })) });
  }

  /** Queues the webhook event `type` for these tasks to their clients' endpoints, in the transaction of the change. */
  async enqueueTaskEvents(tx: DbTransaction, type: WebhookEventType, taskIds: readonly number[]): Promise<void> {
    if (taskIds.length === 0) return;
    await tx.$executeRaw`
      WITH changed AS (SELECT id, client_id FROM "dispatch"."tasks" WHERE id = ANY (${[...taskIds]}::int[])),
      ${queueTaskEvents(type, 'changed')}
      SELECT 1`;
  }

  /**
   * The oldest undelivered message after `afterId`, locked until `tx` ends; one that another relay
   * holds is skipped, so no two relays ever send the same message at the same time.
   */
  async lockNextUndelivered(tx: DbTransaction, afterId: bigint): Promise<OutboxEntry | null> {
    const rows = await tx.$queryRaw<OutboxEntry[]>`
      SELECT id, pattern, payload, attempts
        FROM "dispatch"."outbox_messages"
       WHERE published_at IS NULL AND id > ${afterId}
       ORDER BY id
       LIMIT 1
         FOR UPDATE SKIP LOCKED`;
    return rows[0] ?? null;
  }

  async markPublished(tx: DbTransaction, id: bigint): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."outbox_messages"
         SET published_at = now(), attempts = attempts + 1, last_error = NULL
       WHERE id = ${id}`;
  }

  async markAttemptFailed(tx: DbTransaction, id: bigint, error: string): Promise<void> {
    await tx.$executeRaw`
      UPDATE "dispatch"."outbox_messages"
         SET attempts = attempts + 1, last_error = ${error}
       WHERE id = ${id}`;
  }

  /** Messages not yet confirmed by their receiver, for tests and diagnostics. */
  countUndelivered(): Promise<number> {
    return this.db.outboxMessage.count({ where: { publishedAt: null } });
  }
}
