import { Injectable } from '@nestjs/common';
import type { ClientView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';

@Injectable()
export class ClientsRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async insert(name: string, timezone: string): Promise<number> {
    const client = await this.db.client.create({ data: { name, timezone }, select: { id: true } });
    return client.id;
  }

  async find(id: number): Promise<ClientView | undefined> {
    const client = await this.db.client.findUnique({ where: { id } });
    return client ? { id: client.id, name: client.name, timezone: client.timezone, createdAt: client.createdAt.toISOString() } : undefined;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.client.count({ where: { id } })) === 1;
  }
}
