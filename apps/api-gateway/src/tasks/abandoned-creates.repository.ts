import { Injectable } from '@nestjs/common';
import { GatewayDatabase } from '../database/gateway-database.js';

@Injectable()
export class AbandonedCreatesRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async record(taskKey: string, clientId: number): Promise<void> {
    await this.db.abandonedCreate.upsert({ where: { taskKey }, create: { taskKey, clientId }, update: {} });
  }

  async oldest(limit: number): Promise<string[]> {
    const rows = await this.db.abandonedCreate.findMany({ orderBy: { createdAt: 'asc' }, take: limit, select: { taskKey: true } });
    return rows.map((row) => row.taskKey);
  }

  async forget(taskKey: string): Promise<void> {
    await this.db.abandonedCreate.deleteMany({ where: { taskKey } });
  }
}
