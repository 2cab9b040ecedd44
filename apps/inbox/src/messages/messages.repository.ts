import { Injectable } from '@nestjs/common';
import { InboxDatabase, type InboxTransaction } from '../database/inbox-database.js';
import { Prisma } from '../generated/prisma/client.js';
import type { NewMessage } from './new-message.js';

export type StoredMessage = Pick<Prisma.MessageGetPayload<object>, 'id' | 'clientId' | 'phoneId' | 'sender' | 'body' | 'receivedAt' | 'storedAt'>;

export interface MessageFilter {
  /** undefined: every client's (an admin). */
  clientId?: number;
  /** An ILIKE pattern matched against the sender and the text. */
  pattern?: string;
}

@Injectable()
export class MessagesRepository {
  /** Inserts in one statement what is not stored yet (by dedup key); answers how many rows it added. */
  async insertNew(db: InboxDatabase | InboxTransaction, rows: NewMessage[]): Promise<number> {
    const { count } = await db.message.createMany({ data: rows, skipDuplicates: true });
    return count;
  }

  async count(tx: InboxTransaction, filter: MessageFilter): Promise<number> {
    const [row] = await tx.$queryRaw<{ total: number }[]>`SELECT count(*)::int AS total FROM "inbox"."messages" ${whereOf(filter)}`;
    return row?.total ?? 0;
  }

  /** Newest first; the id breaks ties between replies received in the same millisecond. */
  async page(tx: InboxTransaction, filter: MessageFilter, offset: bigint, limit: number): Promise<StoredMessage[]> {
    return tx.$queryRaw<StoredMessage[]>`
      SELECT id, client_id AS "clientId", phone_id AS "phoneId", sender, body, received_at AS "receivedAt", stored_at AS "storedAt"
        FROM "inbox"."messages"
        ${whereOf(filter)}
       ORDER BY received_at DESC, id DESC
       LIMIT ${limit} OFFSET ${offset}`;
  }
}

function whereOf(filter: MessageFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (filter.clientId !== undefined) conditions.push(Prisma.sql`client_id = ${filter.clientId}`);
  if (filter.pattern !== undefined) conditions.push(Prisma.sql`(sender ILIKE ${filter.pattern} ESCAPE '\\' OR body ILIKE ${filter.pattern} ESCAPE '\\')`);
  return conditions.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;
}
