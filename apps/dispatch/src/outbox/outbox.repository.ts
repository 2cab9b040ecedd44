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

@Injectable()
export class OutboxRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /** Must be given the transaction of the change: the message exists exactly when the change does. */
  async enqueue(tx: DbTransaction, messages: readonly OutboxDraft[]): Promise<void> {
    if (messages.length === 0) return;
    await tx.$executeRaw`
      INSERT INTO "dispatch"."outbox_messages" (pattern, payload)
      SELECT m.pattern, m.payload FROM unnest(${messages.map(({ pattern }) => pattern)}::text[], ${messages.map(({ payload }) => JSON.stringify(payload))}::jsonb[]) WITH ORDINALITY AS m(pattern, payload, position)
       ORDER BY m.position`;
  }

  /** Queues the webhook event `type` for these tasks to their clients' endpoints, in the transaction of the change. */
  async enqueueTaskEvents(tx: DbTransaction, type: WebhookEventType, taskIds: readonly number[]): Promise<void> {
    if (taskIds.length === 0) return;
    await tx.$executeRaw`
      WITH changed AS (SELECT id, client_id FROM "dispatch"."tasks" WHERE id = ANY (${[...taskIds]}::int[])),
      ${queueTaskEvents(type, 'changed')}
      SELECT 1`;
  }

  /** Messages not yet confirmed by their receiver, for tests and diagnostics. */
  countUndelivered(): Promise<number> {
    return this.db.outboxMessage.count({ where: { publishedAt: null } });
  }
}
