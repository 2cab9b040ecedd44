import { Injectable } from '@nestjs/common';
import { placeholdersIn, type TemplateView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';
import type { Template } from '../generated/prisma/client.js';

function viewOf(row: Template): TemplateView {
  return { id: row.id, name: row.name, body: row.body, placeholders: placeholdersIn(row.body), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Whether a write met the unique (client, name). */
export function isNameTaken(error: unknown): boolean {
  return (error as { code?: string }).code === 'P2002';
}

@Injectable()
export class TemplatesRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async list(clientId: number): Promise<TemplateView[]> {
    return (await this.db.template.findMany({ where: { clientId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] })).map(viewOf);
  }

  async find(clientId: number, id: number): Promise<TemplateView | null> {
    const row = await this.db.template.findFirst({ where: { clientId, id } });
    return row ? viewOf(row) : null;
  }

  /** The client's templates among `ids`, by id: what a create-task or create-tasks names. */
  async byIds(clientId: number, ids: readonly number[]): Promise<Map<number, TemplateView>> {
    const rows = await this.db.template.findMany({ where: { clientId, id: { in: [...ids] } } });
    return new Map(rows.map((row) => [row.id, viewOf(row)]));
  }

  count(clientId: number): Promise<number> {
    return this.db.template.count({ where: { clientId } });
  }

  async create(clientId: number, name: string, body: string): Promise<TemplateView> {
    return viewOf(await this.db.template.create({ data: { clientId, name, body } }));
  }

  /** Null when the client has no such template. */
  async update(clientId: number, id: number, name: string, body: string): Promise<TemplateView | null> {
    const changed = await this.db.template.updateManyAndReturn({ where: { clientId, id }, data: { name, body, updatedAt: new Date() } });
    return changed[0] ? viewOf(changed[0]) : null;
  }

  async delete(clientId: number, id: number): Promise<boolean> {
    return (await this.db.template.deleteMany({ where: { clientId, id } })).count === 1;
  }
}
