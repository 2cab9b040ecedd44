import { Injectable } from '@nestjs/common';
import { SmppDatabase } from '../database/smpp-database.js';

export interface ReplyCursor {
  clientId: number;
  afterId: number;
  since: Date;
  /** Names this lease: advancing and giving it back only work while it is still the cursor's. */
  leasedUntil: Date;
}

/** How far each client's replies went out as deliver_sm. */
@Injectable()
export class ReplyCursorsRepository {
  constructor(private readonly db: SmppDatabase) {}

  /** A client's cursor, made at its first receiver bind: replies received from then on are relayed. */
  async start(clientId: number, since: Date): Promise<void> {
    await this.db.replyCursor.createMany({ data: [{ clientId, afterId: 0, since }], skipDuplicates: true });
  }

  /**
   * The cursor, leased for `leaseS`: one replica relays a client's replies at a time; another
   * passes over it (null) until the lease is given back or runs out, as it does when its holder dies.
   */
  async lease(clientId: number, leaseS: number): Promise<ReplyCursor | null> {
    const rows = await this.db.$queryRaw<ReplyCursor[]>`
      UPDATE "smpp"."reply_cursors" SET leased_until = now() + ${leaseS}::int * interval '1 second'
       WHERE client_id = ${clientId} AND (leased_until IS NULL OR leased_until < now())
      RETURNING client_id AS "clientId", after_id AS "afterId", since, leased_until AS "leasedUntil"`;
    return rows[0] ?? null;
  }

  /**
   * Past the reply of id `afterId` (a receiver took it), and the lease renewed for `leaseS`:
   * the cursor as it now is, or null when the lease was lost (it ran out and another replica took it).
   */
  async advance(cursor: ReplyCursor, afterId: number, leaseS: number): Promise<ReplyCursor | null> {
    const rows = await this.db.$queryRaw<ReplyCursor[]>`
      UPDATE "smpp"."reply_cursors" SET after_id = greatest(after_id, ${afterId}), leased_until = now() + ${leaseS}::int * interval '1 second', updated_at = now()
       WHERE client_id = ${cursor.clientId} AND leased_until = ${cursor.leasedUntil}
      RETURNING client_id AS "clientId", after_id AS "afterId", since, leased_until AS "leasedUntil"`;
    return rows[0] ?? null;
  }

  /** Gives the lease back, unless it is no longer this one. */
  async release(cursor: ReplyCursor): Promise<void> {
    await this.db.$executeRaw`UPDATE "smpp"."reply_cursors" SET leased_until = NULL WHERE client_id = ${cursor.clientId} AND leased_until = ${cursor.leasedUntil}`;
  }
}
