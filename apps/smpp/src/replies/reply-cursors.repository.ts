import { Injectable } from '@nestjs/common';
import { SmppDatabase } from '../database/smpp-database.js';
import type { SmppTransaction } from '../database/smpp-transaction.js';

export interface ReplyCursor {
  clientId: number;
  afterId: number;
  since: Date;
}

/** How far each client's replies went out as deliver_sm. */
@Injectable()
export class ReplyCursorsRepository {
  constructor(private readonly db: SmppDatabase) {}

  /** A client's cursor, made at its first receiver bind: replies received from then on are relayed. */
  async start(clientId: number, since: Date): Promise<void> {
    await this.db.replyCursor.createMany({ data: [{ clientId, afterId: 0, since }], skipDuplicates: true });
  }

  /** The cursor, locked for this transaction: one replica relays a client's replies at a time; another passes over it (null). */
  async lock(tx: SmppTransaction, clientId: number): Promise<ReplyCursor | null> {
    const rows = await tx.$queryRaw<ReplyCursor[]>`
      SELECT client_id AS "clientId", after_id AS "afterId", since FROM "smpp"."reply_cursors" WHERE client_id = ${clientId} FOR UPDATE SKIP LOCKED`;
    return rows[0] ?? null;
  }

  async advance(tx: SmppTransaction, clientId: number, afterId: number): Promise<void> {
    await tx.$executeRaw`UPDATE "smpp"."reply_cursors" SET after_id = greatest(after_id, ${afterId}), updated_at = now() WHERE client_id = ${clientId}`;
  }
}
