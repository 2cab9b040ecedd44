import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Patterns, type ReplyKeyword, type ReplyReceivedCommand } from '@smsq/contracts';
import { InboxDatabase, type InboxTransaction } from '../database/inbox-database.js';
import { Prisma } from '../generated/prisma/client.js';
import type { NewMessage } from './new-message.js';

/** A store's transaction commits within this long, so by then no lower id can still appear. */
const SETTLED_S = 2;

export type StoredMessage = Pick<Prisma.MessageGetPayload<object>, 'id' | 'clientId' | 'phoneId' | 'sender' | 'body' | 'encrypted' | 'receivedAt' | 'storedAt'>;

export interface MessageFilter {
  /** undefined: every client's (an admin). */
  clientId?: number;
  /** An ILIKE pattern matched against the sender and the text. */
  pattern?: string;
}

@Injectable()
export class MessagesRepository {
  /**
   * Inserts in one statement what is not stored yet (by dedup key), and in the same transaction
   * an outbox event for each new reply that has a client: the webhook event then exists exactly
   * when the reply does. Answers how many replies it added.
   */
  async insertNew(db: InboxDatabase, rows: NewMessage[]): Promise<number> {
    return db.$transaction(async (tx) => {
      const inserted = await tx.message.createManyAndReturn({
        data: rows,
        skipDuplicates: true,
        select: { id: true, clientId: true, phoneId: true, sender: true, body: true, encrypted: true, keyword: true, receivedAt: true, storedAt: true },
      });
      const events = inserted.flatMap((message) => (message.clientId === null ? [] : [{ pattern: Patterns.dispatch.webhookReplyReceived, payload: replyReceivedOf({ ...message, clientId: message.clientId }) }]));
      if (events.length > 0) await tx.outboxEvent.createMany({ data: events });
      return inserted.length;
    });
  }

  async count(tx: InboxTransaction, filter: MessageFilter): Promise<number> {
    const [row] = await tx.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "inbox"."messages" ${whereOf(filter)}`;
    return row?.total ?? 0;
  }

  /** Newest first; the id breaks ties between replies received in the same millisecond. */
  async page(tx: InboxTransaction, filter: MessageFilter, offset: bigint, limit: number): Promise<StoredMessage[]> {
    return tx.$queryRaw<StoredMessage[]>`
      SELECT id, client_id AS "clientId", phone_id AS "phoneId", sender, body, encrypted, received_at AS "receivedAt", stored_at AS "storedAt"
        FROM "inbox"."messages"
        ${whereOf(filter)}
       ORDER BY received_at DESC, id DESC
       LIMIT ${limit} OFFSET ${offset}`;
  }

  /** The client's replies from `from` received before `before`, newest first, along (client_id, sender, received_at). */
  fromSender(db: InboxDatabase, clientId: number, from: string, before: Date | undefined, limit: number): Promise<StoredMessage[]> {
    const older = before ? Prisma.sql`AND received_at < ${before}` : Prisma.empty;
    return db.$queryRaw<StoredMessage[]>`
      SELECT id, client_id AS "clientId", phone_id AS "phoneId", sender, body, encrypted, received_at AS "receivedAt", stored_at AS "storedAt"
        FROM "inbox"."messages"
       WHERE client_id = ${clientId} AND sender = ${from} ${older}
       ORDER BY received_at DESC, id DESC
       LIMIT ${limit}`;
  }

  /**
   * The client's replies after id `afterId`, oldest first, along (client_id, id), but only those no
   * lower id can still join: stored by a transaction older than every one still running (the
   * row's `xmin` before the snapshot's horizon, compared by age so that xid wraparound cannot
   * confuse it), and at least SETTLED_S ago. A reply whose transaction commits late (Postgres slow,
   * a long stall) is then read before anything stored after it, never passed over.
   */
  storedAfter(db: InboxDatabase, clientId: number, afterId: number, receivedSince: Date | undefined, limit: number): Promise<StoredMessage[]> {
    const since = receivedSince ? Prisma.sql`AND received_at >= ${receivedSince}` : Prisma.empty;
    return db.$queryRaw<StoredMessage[]>`
      WITH horizon AS (SELECT (pg_snapshot_xmin(pg_current_snapshot())::text::bigint % 4294967296)::text::xid AS xmin)
      SELECT m.id, m.client_id AS "clientId", m.phone_id AS "phoneId", m.sender, m.body, m.encrypted, m.received_at AS "receivedAt", m.stored_at AS "storedAt"
        FROM "inbox"."messages" m, horizon h
       WHERE m.client_id = ${clientId} AND m.id > ${afterId} AND m.stored_at <= now() - ${SETTLED_S} * interval '1 second'
         AND age(m.xmin) > age(h.xmin) ${since}
       ORDER BY m.id
       LIMIT ${limit}`;
  }

  /** Per sender, the replies received after its mark (all when the mark is null). */
  async unread(db: InboxDatabase, clientId: number, marks: readonly { from: string; since: Date | null }[]): Promise<Record<string, number>> {
    if (marks.length === 0) return {};
    const rows = await db.$queryRaw<{ sender: string; unread: number }[]>`
      SELECT m.sender, count(*)::int AS unread
        FROM unnest(${marks.map((mark) => mark.from)}::text[], ${marks.map((mark) => mark.since)}::timestamptz[]) AS t(sender, since)
        JOIN "inbox"."messages" m ON m.client_id = ${clientId} AND m.sender = t.sender AND (t.since IS NULL OR m.received_at > t.since)
       GROUP BY m.sender`;
    return Object.fromEntries(rows.map((row) => [row.sender, row.unread]));
  }

  /** The client's senders with a reply whose text matches `pattern` (an ILIKE pattern), most recent first. */
  async sendersWithText(db: InboxDatabase, clientId: number, pattern: string, limit: number): Promise<string[]> {
    const rows = await db.$queryRaw<{ sender: string }[]>`
      SELECT sender FROM "inbox"."messages"
       WHERE client_id = ${clientId} AND NOT encrypted AND body ILIKE ${pattern} ESCAPE '\\'
       GROUP BY sender
       ORDER BY max(received_at) DESC
       LIMIT ${limit}`;
    return rows.map((row) => row.sender);
  }
}

function whereOf(filter: MessageFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (filter.clientId !== undefined) conditions.push(Prisma.sql`client_id = ${filter.clientId}`);
  if (filter.pattern !== undefined) conditions.push(Prisma.sql`(sender ILIKE ${filter.pattern} ESCAPE '\\' OR (NOT encrypted AND body ILIKE ${filter.pattern} ESCAPE '\\'))`);
  return conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}

function replyReceivedOf(message: StoredMessage & { clientId: number; keyword: string | null }): Prisma.InputJsonObject {
  const command: ReplyReceivedCommand = {
    eventId: randomUUID(),
    clientId: message.clientId,
    phoneId: message.phoneId,
    messageId: message.id,
    from: message.sender,
    message: message.body,
    ...(message.encrypted ? { encrypted: true } : {}),
    ...(message.encrypted && message.keyword !== null ? { keyword: message.keyword as ReplyKeyword } : {}),
    receivedAt: message.receivedAt.toISOString(),
    storedAt: message.storedAt.toISOString(),
  };
  return { ...command };
}
