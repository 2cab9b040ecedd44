import { Injectable } from '@nestjs/common';
import { NotFoundError, type KeyView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';
import { Prisma } from '../generated/prisma/client.js';

export interface ApiKeyOwner {
  keyId: number;
  clientId: number;
  timezone: string;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async insert(clientId: number, prefix: string, hash: string, name: string | null = null): Promise<number> {
    try {
      const key = await this.db.apiKey.create({ data: { clientId, prefix, hash, name }, select: { id: true } });
      return key.id;
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003') throw new NotFoundError('client');
      throw error;
    }
  }

  async findActiveOwner(hash: string): Promise<ApiKeyOwner | undefined> {
    const key = await this.db.apiKey.findFirst({
      where: { hash, revokedAt: null, client: { disabledAt: null } },
      select: { id: true, clientId: true, client: { select: { timezone: true } } },
    });
    return key ? { keyId: key.id, clientId: key.clientId, timezone: key.client.timezone } : undefined;
  }

  /**
   * Marks the key revoked (keeping the first revocation time) and returns its hash; undefined when
   * there is no such key, or (with `clientId`) it is another client's.
   */
  async revoke(keyId: number, clientId?: number): Promise<string | undefined> {
    const key = await this.db.apiKey.findUnique({ where: { id: keyId }, select: { hash: true, revokedAt: true, clientId: true } });
    if (!key || (clientId !== undefined && key.clientId !== clientId)) return undefined;
    if (!key.revokedAt) await this.db.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    return key.hash;
  }

  /** The hashes of a client's keys that are not revoked. */
  async liveHashesOfClient(clientId: number): Promise<string[]> {
    return (await this.db.apiKey.findMany({ where: { clientId, revokedAt: null }, select: { hash: true } })).map((key) => key.hash);
  }

  /** The owners `findActiveOwner` would answer for each of a client's usable keys, by hash. */
  async activeOwnersOfClient(clientId: number): Promise<Array<{ hash: string; owner: ApiKeyOwner }>> {
    const keys = await this.db.apiKey.findMany({
      where: { clientId, revokedAt: null, client: { disabledAt: null } },
      select: { id: true, hash: true, clientId: true, client: { select: { timezone: true } } },
    });
    return keys.map((key) => ({ hash: key.hash, owner: { keyId: key.id, clientId: key.clientId, timezone: key.client.timezone } }));
  }

  async touch(keyId: number): Promise<void> {
    await this.db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: new Date() } });
  }

  /** Newest first; undefined when the client does not exist. */
  async listOfClient(clientId: number): Promise<KeyView[] | undefined> {
    const client = await this.db.client.findUnique({
      where: { id: clientId },
      select: { apiKeys: { orderBy: { id: 'desc' }, select: { id: true, clientId: true, prefix: true, name: true, createdAt: true, lastUsedAt: true, revokedAt: true } } },
    });
    return client?.apiKeys.map((key) => ({
      id: key.id,
      clientId: key.clientId,
      prefix: key.prefix,
      name: key.name,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    }));
  }
}
