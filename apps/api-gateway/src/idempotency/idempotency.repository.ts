import { Injectable } from '@nestjs/common';
import { GatewayDatabase } from '../database/gateway-database.js';
import { Prisma } from '../generated/prisma/client.js';

export interface IdempotencyRecordRow {
  requestHash: string;
  statusCode: number | null;
  response: unknown;
  createdAt: Date;
  undecidedAt: Date | null;
}

@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: GatewayDatabase) {}

  /** Inserts an in-progress record and answers its creation time; undefined when one exists already for this client and key. */
  async tryInsert(clientId: number, key: string, requestHash: string): Promise<Date | undefined> {
    const inserted = await this.db.$queryRaw<{ created_at: Date }[]>`
      INSERT INTO "gateway"."idempotency_records" ("client_id", "key", "request_hash")
      VALUES (${clientId}, ${key}, ${requestHash})
      ON CONFLICT DO NOTHING
      RETURNING "created_at"`;
    return inserted[0]?.created_at;
  }

  find(clientId: number, key: string): Promise<IdempotencyRecordRow | null> {
    return this.db.idempotencyRecord.findUnique({
      where: { clientId_key: { clientId, key } },
      select: { requestHash: true, statusCode: true, response: true, createdAt: true, undecidedAt: true },
    });
  }

  async complete(clientId: number, key: string, statusCode: number, response: object): Promise<void> {
    await this.db.idempotencyRecord.update({
      where: { clientId_key: { clientId, key } },
      data: { statusCode, response: response as Prisma.InputJsonObject },
    });
  }

  /** This request's own record, still in progress, is one whose gateway gave up without learning its outcome. */
  async markUndecided(clientId: number, key: string, createdAt: Date): Promise<void> {
    await this.db.idempotencyRecord.updateMany({ where: { clientId, key, createdAt, statusCode: null }, data: { undecidedAt: new Date() } });
  }

  /** Drops an expired record so its key can start afresh; false if someone else already replaced it. */
  async removeIfCreatedAt(clientId: number, key: string, createdAt: Date): Promise<boolean> {
    const removed = await this.db.idempotencyRecord.deleteMany({ where: { clientId, key, createdAt } });
    return removed.count === 1;
  }
}
