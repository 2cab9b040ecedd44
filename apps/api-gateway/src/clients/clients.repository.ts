import { Injectable } from '@nestjs/common';
import type { ClientView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';
import { Prisma } from '../generated/prisma/client.js';

const MAX_SERIAL = 2_147_483_647;

export interface ClientSearch {
  /** Part of the name, matched case-insensitively. */
  namePart?: string;
  /** An id that also matches, when the search was a number. */
  id?: number;
}

interface ClientRow {
  id: number;
  name: string;
  timezone: string;
  created_at: Date;
  disabled_at: Date | null;
}

@Injectable()
export class ClientsRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async insert(name: string, timezone: string): Promise<number> {
    const client = await this.db.client.create({ data: { name, timezone }, select: { id: true } });
    return client.id;
  }

  async find(id: number): Promise<ClientView | undefined> {
    const client = await this.db.client.findUnique({ where: { id } });
    return client ? { id: client.id, name: client.name, timezone: client.timezone, createdAt: client.createdAt.toISOString(), disabledAt: client.disabledAt?.toISOString() ?? null } : undefined;
  }

  /** Disabled from now (keeping the first time), or enabled; false when there is no such client. */
  async setDisabled(id: number, disabled: boolean): Promise<boolean> {
    const changed = await this.db.$executeRaw`
      UPDATE "gateway"."clients" SET disabled_at = CASE WHEN ${disabled} THEN COALESCE(disabled_at, now()) END WHERE id = ${id}`;
    return changed === 1;
  }

  /** Whether Postgres knows the zone too: its list can lag Node's, and every service computes local days in SQL. */
  async isKnownTimeZone(timezone: string): Promise<boolean> {
    const [row] = await this.db.$queryRaw<Array<{ known: boolean }>>`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${timezone}) AS known`;
    return row?.known === true;
  }

  /** The change's number (each change of a client's zone counts one up); null when there is no such client. */
  async setTimezone(id: number, timezone: string): Promise<number | null> {
    const [row] = await this.db.$queryRaw<Array<{ version: number }>>`
      UPDATE "gateway"."clients" SET timezone = ${timezone}, timezone_version = timezone_version + 1 WHERE id = ${id} RETURNING timezone_version AS version`;
    return row?.version ?? null;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.client.count({ where: { id } })) === 1;
  }

  /**
   * Newest first. Ids are handed out in creation order, so `id DESC` is creation order and reads
   * the primary key backwards instead of sorting.
   */
  async page(search: ClientSearch, skip: number, take: number): Promise<{ clients: ClientView[]; total: number }> {
    const where = whereOf(search);
    const [rows, counted] = await Promise.all([
      this.db.$queryRaw<ClientRow[]>`
        SELECT id, name, timezone, created_at, disabled_at FROM "gateway"."clients" ${where}
         ORDER BY id DESC OFFSET ${skip}::bigint LIMIT ${take}::int`,
      this.db.$queryRaw<Array<{ total: number }>>`SELECT count(*)::int AS total FROM "gateway"."clients" ${where}`,
    ]);
    const clients = rows.map((row) => ({ id: row.id, name: row.name, timezone: row.timezone, createdAt: row.created_at.toISOString(), disabledAt: row.disabled_at?.toISOString() ?? null }));
    return { clients, total: counted[0]?.total ?? 0 };
  }
}

function whereOf(search: ClientSearch): Prisma.Sql {
  if (search.namePart === undefined) return Prisma.empty;
  // The search is text, never a pattern: LIKE's wildcards and its escape character are escaped.
  const pattern = `%${search.namePart.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const byId = search.id !== undefined && search.id <= MAX_SERIAL ? Prisma.sql`OR id = ${search.id}::int` : Prisma.empty;
  return Prisma.sql`WHERE name ILIKE ${pattern} ESCAPE '\\' ${byId}`;
}
