import { Injectable } from '@nestjs/common';
import { lockUntilCommit } from '../database/advisory-lock.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';

type Pool = number | null;

/**
 * The candidates a task can be routed to. Given a transaction, the phone found is locked until it
 * commits, and a gateway pool is locked before it is read, so that concurrent assignments see each
 * other's `last_assigned_at` and least-recently-used really takes turns. Without one, nothing is locked.
 */
@Injectable()
export class RoutingRepository {
  constructor(private readonly db: DispatchDatabase) {}

  activeOwnPhone(clientId: number, phoneId: number, tx?: DbTransaction): Promise<number | null> {
    return this.firstId(
      tx,
      Prisma.sql`SELECT id FROM "dispatch"."phones"
                  WHERE id = ${phoneId} AND kind = 'own' AND client_id = ${clientId} AND active`,
    );
  }

  firstActiveOwnPhone(clientId: number, tx?: DbTransaction): Promise<number | null> {
    return this.firstId(
      tx,
      Prisma.sql`SELECT id FROM "dispatch"."phones"
                  WHERE kind = 'own' AND client_id = ${clientId} AND active
                  ORDER BY id LIMIT 1`,
    );
  }

  async activeVipGateway(clientId: number, phoneId: number, tx?: DbTransaction): Promise<number | null> {
    if (tx) await this.lockPool(tx, clientId);
    return this.firstId(
      tx,
      Prisma.sql`SELECT id FROM "dispatch"."phones"
                  WHERE id = ${phoneId} AND kind = 'gateway' AND client_id = ${clientId} AND active`,
    );
  }

  /** The active gateway of a client's VIP pool (or of the shared pool, `null`) assigned a task least recently. */
  async leastRecentlyUsedGateway(pool: Pool, tx?: DbTransaction): Promise<number | null> {
    if (tx) await this.lockPool(tx, pool);
    const inPool = pool === null ? Prisma.sql`client_id IS NULL` : Prisma.sql`client_id = ${pool}`;
    return this.firstId(
      tx,
      Prisma.sql`SELECT id FROM "dispatch"."phones"
                  WHERE kind = 'gateway' AND ${inPool} AND active
                  ORDER BY last_assigned_at ASC NULLS FIRST, id LIMIT 1`,
    );
  }

  private async firstId(tx: DbTransaction | undefined, query: Prisma.Sql): Promise<number | null> {
    const rows = tx
      ? await tx.$queryRaw<{ id: number }[]>`${query} FOR UPDATE`
      : await this.db.$queryRaw<{ id: number }[]>(query);
    return rows[0]?.id ?? null;
  }

  private lockPool(tx: DbTransaction, pool: Pool): Promise<void> {
    return lockUntilCommit(tx, `dispatch.pool:${pool ?? 'shared'}`);
  }
}
