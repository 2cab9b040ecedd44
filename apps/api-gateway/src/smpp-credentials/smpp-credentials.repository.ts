import { Injectable } from '@nestjs/common';
import type { SmppCredentialView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';
import { Prisma, type SmppCredential } from '../generated/prisma/client.js';

/** What a bind is checked against: the credential, its password's hash and its client's state. */
export interface StoredSmppCredential {
  view: SmppCredentialView;
  passwordHash: string;
  clientDisabled: boolean;
  timezone: string;
}

/** Why an insert was refused. */
export type SmppCredentialInsert =
  | { inserted: SmppCredentialView }
  | { refused: 'no_client' | 'system_id_taken' }
  | { refused: 'too_many'; active: number };

function viewOf(row: SmppCredential): SmppCredentialView {
  return {
    id: row.id,
    clientId: row.clientId,
    systemId: row.systemId,
    sourceAddresses: row.sourceAddresses,
    createdAt: row.createdAt.toISOString(),
    lastBoundAt: row.lastBoundAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

@Injectable()
export class SmppCredentialsRepository {
  constructor(private readonly db: GatewayDatabase) {}

  /**
   * Inserts a credential unless its client has `limit` live ones already: the client's row is
   * locked meanwhile, so two creates at once cannot both pass the count.
   */
  async insert(row: { clientId: number; systemId: string; passwordHash: string; sourceAddresses: string[] }, limit: number): Promise<SmppCredentialInsert> {
    try {
      return await this.db.$transaction(async (tx) => {
        const client = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM "gateway"."clients" WHERE id = ${row.clientId} FOR UPDATE`;
        if (client.length === 0) return { refused: 'no_client' as const };
        const active = await tx.smppCredential.count({ where: { clientId: row.clientId, revokedAt: null } });
        if (active >= limit) return { refused: 'too_many' as const, active };
        return { inserted: viewOf(await tx.smppCredential.create({ data: row })) };
      });
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return { refused: 'system_id_taken' };
      throw error;
    }
  }

  /** Oldest first, revoked ones included. */
  async listOfClient(clientId: number): Promise<SmppCredentialView[]> {
    return (await this.db.smppCredential.findMany({ where: { clientId }, orderBy: { id: 'asc' } })).map(viewOf);
  }

  async clientExists(clientId: number): Promise<boolean> {
    return (await this.db.client.count({ where: { id: clientId } })) === 1;
  }

  /** Marks it revoked, keeping the first revocation time; undefined when the client has no such credential. */
  async revoke(clientId: number, id: number): Promise<SmppCredentialView | undefined> {
    await this.db.smppCredential.updateMany({ where: { id, clientId, revokedAt: null }, data: { revokedAt: new Date() } });
    const row = await this.db.smppCredential.findFirst({ where: { id, clientId } });
    return row ? viewOf(row) : undefined;
  }

  async findBySystemId(systemId: string): Promise<StoredSmppCredential | undefined> {
    const row = await this.db.smppCredential.findUnique({ where: { systemId }, include: { client: { select: { disabledAt: true, timezone: true } } } });
    if (!row) return undefined;
    return { view: viewOf(row), passwordHash: row.passwordHash, clientDisabled: row.client.disabledAt !== null, timezone: row.client.timezone };
  }

  /** Sets `last_bound_at` unless it was set within `intervalMs`, so a client binding many sessions writes once. */
  async touchBound(id: number, intervalMs: number): Promise<Date | undefined> {
    const now = new Date();
    const changed = await this.db.smppCredential.updateMany({
      where: { id, OR: [{ lastBoundAt: null }, { lastBoundAt: { lt: new Date(now.getTime() - intervalMs) } }] },
      data: { lastBoundAt: now },
    });
    return changed.count === 1 ? now : undefined;
  }

  /** Those of `ids` that are not revoked and whose client is not disabled. */
  async activeAmong(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.smppCredential.findMany({ where: { id: { in: [...ids] }, revokedAt: null, client: { disabledAt: null } }, select: { id: true }, orderBy: { id: 'asc' } });
    return rows.map((row) => row.id);
  }
}
