import { Injectable } from '@nestjs/common';
import { GatewayDatabase } from '../database/gateway-database.js';

@Injectable()
export class AbandonedCreatesRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async record(taskKey: string, clientId: number): Promise<void> {
    await this.db.abandonedCreate.upsert({ where: { taskKey }, create: { taskKey, clientId }, update: {} });
  }

  /**
   * The oldest keys no other gateway is settling, at most `limit`, oldest first, each held for
   * `leaseMs`: two gateways settle different keys instead of the same ones twice.
   */
  async take(limit: number, leaseMs: number): Promise<string[]> {
    const rows = await this.db.$queryRaw<Array<{ task_key: string; created_at: Date }>>`
      UPDATE "gateway"."abandoned_creates" SET settling_until = now() + ${leaseMs} * interval '1 millisecond'
      WHERE task_key IN (
        SELECT task_key FROM "gateway"."abandoned_creates"
        WHERE settling_until IS NULL OR settling_until < now()
        ORDER BY created_at LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING task_key::text, created_at`;
    return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime()).map((row) => row.task_key);
  }

  /** Keys taken and not settled, for the next round of any gateway. */
  async release(taskKeys: readonly string[]): Promise<void> {
    if (taskKeys.length > 0) await this.db.abandonedCreate.updateMany({ where: { taskKey: { in: [...taskKeys] } }, data: { settlingUntil: null } });
  }

  async forget(taskKey: string): Promise<void> {
    await this.db.abandonedCreate.deleteMany({ where: { taskKey } });
  }
}
