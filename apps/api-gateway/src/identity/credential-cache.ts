import { Injectable, Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { UnavailableError } from '@smsq/contracts';

const TTL_S = 300;
const TOUCH_INTERVAL_S = 60;
/** Enough for every credential in use at once; past it the memo starts afresh rather than grow. */
const MAX_REMEMBERED_TOUCHES = 10_000;
/** Longer than any cached entry can live, so a lookup racing a revocation cannot revive the credential. */
const TOMBSTONE_TTL_S = 2 * TTL_S;

export type CachedCredential<T> = { revoked: true } | { revoked: false; value: T | undefined };

/**
 * Caches what a credential hash resolves to, in Redis so every gateway instance sees a
 * revocation at once. Reads fall back to the database when Redis is away; a revocation that
 * cannot reach Redis fails, so it is repeated rather than left half done.
 */
@Injectable()
export class CredentialCache {
  private readonly logger = new Logger(CredentialCache.name);

  /** When this process last asked Redis per credential: within the interval Redis would answer no anyway. */
  private readonly touchedAt = new Map<string, number>();

  constructor(private readonly redis: Redis) {}

  async get<T>(kind: string, hash: string): Promise<CachedCredential<T>> {
    try {
      const [cached, tombstone] = await this.redis.mget(`auth:${kind}:${hash}`, `auth:revoked:${kind}:${hash}`);
      if (tombstone !== null) return { revoked: true };
      return { revoked: false, value: cached === null ? undefined : (JSON.parse(cached) as T) };
    } catch (error) {
      this.logger.warn(`credential cache unavailable: ${(error as Error).message}`);
      return { revoked: false, value: undefined };
    }
  }

  /**
   * What a lookup read from the database. Only when nothing is cached: a lookup that read the
   * database before a `replace` must not put back what the replace corrected.
   */
  async set(kind: string, hash: string, value: object): Promise<void> {
    await this.redis.set(`auth:${kind}:${hash}`, JSON.stringify(value), 'EX', TTL_S, 'NX').catch(() => undefined);
  }

  /** A credential's owner changed (its client's time zone): every gateway reads the new one from its next request. */
  async replace(kind: string, hash: string, value: object): Promise<void> {
    try {
      await this.redis.set(`auth:${kind}:${hash}`, JSON.stringify(value), 'EX', TTL_S);
    } catch {
      throw new UnavailableError('the change is saved in the database but the cache was not reached; repeat the command');
    }
  }

  async revoke(kind: string, hash: string): Promise<void> {
    try {
      await this.redis.multi().set(`auth:revoked:${kind}:${hash}`, '1', 'EX', TOMBSTONE_TTL_S).del(`auth:${kind}:${hash}`).exec();
    } catch {
      throw new UnavailableError('the credential is revoked in the database but the cache was not reached; repeat the revocation');
    }
  }

  /** Undoes `revoke` for a credential that is valid again (its client enabled): the next lookup reads the database. */
  async unrevoke(kind: string, hash: string): Promise<void> {
    try {
      await this.redis.del(`auth:revoked:${kind}:${hash}`, `auth:${kind}:${hash}`);
    } catch {
      throw new UnavailableError('the client is enabled in the database but the cache was not reached; repeat the command');
    }
  }

  /**
   * True at most once a minute per credential, to keep `last_used_at` writes off the hot path.
   * Redis decides across gateways; a credential this process asked about within the minute is
   * answered from memory, which saves a Redis round trip on nearly every request.
   */
  async shouldTouch(kind: string, id: number): Promise<boolean> {
    const name = `${kind}:${id}`;
    const now = Date.now();
    const last = this.touchedAt.get(name);
    if (last !== undefined && now - last < TOUCH_INTERVAL_S * 1000) return false;
    const set = await this.redis.set(`auth:seen:${name}`, '1', 'EX', TOUCH_INTERVAL_S, 'NX').catch(() => undefined);
    // Remembered whichever gateway won (NX answers null when another did), so a credential another gateway touched is not asked about on every request either.
    if (set !== undefined) {
      if (this.touchedAt.size >= MAX_REMEMBERED_TOUCHES) this.touchedAt.clear();
      this.touchedAt.set(name, now);
    }
    return set === 'OK';
  }
}
