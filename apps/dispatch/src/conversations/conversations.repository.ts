import { Injectable } from '@nestjs/common';
import { CONVERSATION_PREVIEW_LENGTH, type ConversationView } from '@smsq/contracts';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import type { PagePosition } from '../database/page-cursor.js';
import { Prisma, type Conversation, type Task } from '../generated/prisma/client.js';
import { TASK_COLUMNS } from '../tasks/task-columns.js';

export function conversationViewOf(row: Conversation): ConversationView {
  return {
    number: row.number,
    lastAt: row.lastAt.toISOString(),
    lastText: row.lastText,
    lastEncrypted: row.lastEncrypted,
    lastDirection: row.lastDirection === 'in' ? 'in' : 'out',
    replyPhoneId: row.replyPhoneId,
    replyAt: row.replyAt?.toISOString() ?? null,
    readAt: row.readAt?.toISOString() ?? null,
  };
}

@Injectable()
export class ConversationsRepository {
  constructor(private readonly db: DispatchDatabase) {}

  /**
   * Each new task's thread, in the transaction that stores the task: the thread exists exactly
   * when its first task does. Rows are taken in (client, number) order, as every batch takes
   * them, so two batches never wait on each other in a cycle. The thread's time is `now()`, the
   * transaction's start, which is what a task's `created_at` defaults to: so this needs nothing
   * back from the insert and can go out right behind it. Of a batch's tasks to one number, the
   * last given is the thread's last text.
   */
  async touchOutgoing(tx: DbTransaction, tasks: readonly Pick<Task, 'clientId' | 'recipient' | 'message' | 'encrypted'>[]): Promise<void> {
    if (tasks.length === 0) return;
    await tx.$executeRaw`
      INSERT INTO "dispatch"."conversations" AS c (client_id, number, last_at, last_text, last_encrypted, last_direction)
      SELECT DISTINCT ON (t.client_id, t.number) t.client_id, t.number, now(), ${previewOf('t.text', 't.encrypted')}, t.encrypted, 'out'
        FROM unnest(${tasks.map((task) => task.clientId)}::int[], ${tasks.map((task) => task.recipient)}::text[], ${tasks.map((task) => task.message)}::text[],
                    ${tasks.map((task) => task.encrypted)}::boolean[])
             WITH ORDINALITY AS t(client_id, number, text, encrypted, position)
       ORDER BY t.client_id, t.number, t.position DESC
      ON CONFLICT (client_id, number) DO UPDATE SET last_at = EXCLUDED.last_at, last_text = EXCLUDED.last_text, last_encrypted = EXCLUDED.last_encrypted, last_direction = 'out'
       WHERE c.last_at <= EXCLUDED.last_at`;
  }

  /** A reply's thread (relayed at least once: a repeat changes nothing). */
  async touchIncoming(clientId: number, number: string, text: string, encrypted: boolean, at: Date, phoneId: number | null): Promise<void> {
    await this.db.sql.$executeRaw`
      INSERT INTO "dispatch"."conversations" AS c (client_id, number, last_at, last_text, last_encrypted, last_direction, reply_phone_id, reply_at)
      VALUES (${clientId}, ${number}, ${at}, left(${encrypted ? '' : text}, ${CONVERSATION_PREVIEW_LENGTH}), ${encrypted}, 'in', ${phoneId}, ${at})
      ON CONFLICT (client_id, number) DO UPDATE SET
        last_at = GREATEST(c.last_at, EXCLUDED.last_at),
        last_text = CASE WHEN c.last_at <= EXCLUDED.last_at THEN EXCLUDED.last_text ELSE c.last_text END,
        last_encrypted = CASE WHEN c.last_at <= EXCLUDED.last_at THEN EXCLUDED.last_encrypted ELSE c.last_encrypted END,
        last_direction = CASE WHEN c.last_at <= EXCLUDED.last_at THEN 'in' ELSE c.last_direction END,
        reply_phone_id = CASE WHEN c.reply_at IS NULL OR c.reply_at <= EXCLUDED.reply_at THEN EXCLUDED.reply_phone_id ELSE c.reply_phone_id END,
        reply_at = GREATEST(c.reply_at, EXCLUDED.reply_at)`;
  }

  /** Newest first along (client_id, last_at, number). */
  async page(clientId: number, limit: number, after: PagePosition | undefined, search: string | undefined, numbers: readonly string[] | undefined): Promise<ConversationView[]> {
    const from = after ? Prisma.sql`AND (last_at, number) < (${after.at}, ${after.key})` : Prisma.empty;
    // Digits and at most a leading +: nothing in it means anything to LIKE.
    const containing = search ? Prisma.sql`AND number LIKE ${`%${search}%`}` : Prisma.empty;
    const among = numbers ? Prisma.sql`AND number = ANY (${[...numbers]}::text[])` : Prisma.empty;
    const rows = await this.db.sql.$queryRaw<Conversation[]>`
      SELECT client_id AS "clientId", number, last_at AS "lastAt", last_text AS "lastText", last_encrypted AS "lastEncrypted", last_direction AS "lastDirection",
             reply_phone_id AS "replyPhoneId", reply_at AS "replyAt", read_at AS "readAt"
        FROM "dispatch"."conversations"
       WHERE client_id = ${clientId} ${from} ${containing} ${among}
       ORDER BY last_at DESC, number DESC
       LIMIT ${limit}`;
    return rows.map(conversationViewOf);
  }

  async markRead(clientId: number, number: string): Promise<ConversationView | null> {
    const [row] = await this.db.conversation.updateManyAndReturn({ where: { clientId, number }, data: { readAt: new Date() } });
    return row ? conversationViewOf(row) : null;
  }

  /** The client's tasks to `number` created before `before`, newest first, along (client_id, recipient, created_at, id). */
  tasksTo(clientId: number, number: string, before: Date | undefined, limit: number): Promise<Task[]> {
    const older = before ? Prisma.sql`AND t.created_at < ${before}` : Prisma.empty;
    return this.db.sql.$queryRaw<Task[]>`
      SELECT ${TASK_COLUMNS} FROM "dispatch"."tasks" t
       WHERE t.client_id = ${clientId} AND t.recipient = ${number} ${older}
       ORDER BY t.created_at DESC, t.id DESC
       LIMIT ${limit}`;
  }

  /** The client's numbers with a task whose text contains `pattern` (an ILIKE pattern), most recent first. */
  async numbersWithText(clientId: number, pattern: string, limit: number): Promise<string[]> {
    const rows = await this.db.sql.$queryRaw<{ recipient: string }[]>`
      SELECT recipient FROM "dispatch"."tasks"
       WHERE client_id = ${clientId} AND NOT encrypted AND message ILIKE ${pattern} ESCAPE '\\'
       GROUP BY recipient
       ORDER BY max(created_at) DESC
       LIMIT ${limit}`;
    return rows.map((row) => row.recipient);
  }
}

/** A thread's preview of a message: its first characters, or nothing of a sealed one, which only its ciphertext would fill. */
function previewOf(text: string, encrypted: string): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${Prisma.raw(encrypted)} THEN '' ELSE left(${Prisma.raw(text)}, ${CONVERSATION_PREVIEW_LENGTH}) END`;
}
