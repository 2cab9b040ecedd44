import { Injectable } from '@nestjs/common';
import type { WorkerTokenView } from '@smsq/contracts';
import { GatewayDatabase } from '../database/gateway-database.js';

export interface WorkerTokenHolder {
  tokenId: number;
  /** The phone or gateway the token is bound to; null for an unbound Profile B token. */
  phoneId: number | null;
}

@Injectable()
export class WorkerTokensRepository {
  constructor(private readonly db: GatewayDatabase) {}

  async insert(phoneId: number | null, prefix: string, hash: string): Promise<number> {
    const token = await this.db.workerToken.create({ data: { phoneId, prefix, hash }, select: { id: true } });
    return token.id;
  }

  async findActiveHolder(hash: string): Promise<WorkerTokenHolder | undefined> {
    const token = await this.db.workerToken.findFirst({ where: { hash, revokedAt: null }, select: { id: true, phoneId: true } });
    return token ? { tokenId: token.id, phoneId: token.phoneId } : undefined;
  }

  async revoke(tokenId: number): Promise<string | undefined> {
    const token = await this.db.workerToken.findUnique({ where: { id: tokenId }, select: { hash: true, revokedAt: true } });
    if (!token) return undefined;
    if (!token.revokedAt) await this.db.workerToken.update({ where: { id: tokenId }, data: { revokedAt: new Date() } });
    return token.hash;
  }

  /** Revokes every active token of a phone and returns their hashes, for a phone that re-registers. */
  async revokeAllOfPhone(phoneId: number): Promise<string[]> {
    const tokens = await this.db.workerToken.findMany({ where: { phoneId, revokedAt: null }, select: { hash: true } });
    await this.db.workerToken.updateMany({ where: { phoneId, revokedAt: null }, data: { revokedAt: new Date() } });
    return tokens.map((token) => token.hash);
  }

  async touch(tokenId: number): Promise<void> {
    await this.db.workerToken.update({ where: { id: tokenId }, data: { lastUsedAt: new Date() } });
  }

  /** Newest first: all tokens, or one phone's. */
  async list(phoneId?: number): Promise<WorkerTokenView[]> {
    const tokens = await this.db.workerToken.findMany({
      where: phoneId === undefined ? {} : { phoneId },
      orderBy: { id: 'desc' },
      select: { id: true, phoneId: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
    });
    return tokens.map((token) => ({
      id: token.id,
      phoneId: token.phoneId,
      prefix: token.prefix,
      createdAt: token.createdAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
      revokedAt: token.revokedAt?.toISOString() ?? null,
    }));
  }
}
