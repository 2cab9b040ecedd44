import { Injectable } from '@nestjs/common';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { Prisma } from '../generated/prisma/client.js';

export interface TaskToNumber {
  clientId: number;
  phoneId: number;
}

@Injectable()
export class RepliesRepository {
  constructor(private readonly db: DispatchDatabase) {}

  async ownerOfOwnPhone(phoneId: number): Promise<number | null> {
    const phone = await this.db.phone.findFirst({ where: { id: phoneId, kind: 'own' }, select: { clientId: true } });
    return phone?.clientId ?? null;
  }

  /**
   * The latest task to `recipient` (from one gateway, or any), newest first along the
   * (recipient, created_at) index. With `wentOut`, only tasks handed to a worker (claimed or sent).
   */
  async latestTaskTo(recipient: string, phoneId: number | null, wentOut: boolean): Promise<TaskToNumber | null> {
    const fromGateway = phoneId === null ? Prisma.empty : Prisma.sql`AND phone_id = ${phoneId}`;
    const handedOver = wentOut ? Prisma.sql`AND status IN ('claimed', 'sent')` : Prisma.empty;
    const rows = await this.db.sql.$queryRaw<TaskToNumber[]>`
      SELECT client_id AS "clientId", phone_id AS "phoneId"
        FROM "dispatch"."tasks"
       WHERE recipient = ${recipient} ${fromGateway} ${handedOver}
       ORDER BY created_at DESC, id DESC
       LIMIT 1`;
    return rows[0] ?? null;
  }
}
