import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DashboardConfig } from '../config/dashboard-config.js';
import { newBrowserId } from './browser-id.js';
import { redisCall } from './redis-call.js';

interface SessionRecord {
  userId: number;
  /** The user's password version read with the hash the sign-in checked; absent in sessions from before versions, which count as 0. */
  passwordVersion?: number;
  /** Epoch milliseconds; a session never outlives `sessionMaxS` from here. */
  createdAt: number;
}

/**
 * Sessions in Redis under `<namespace>:session:<sha256 of the id>`: the key does not hold the id
 * itself, so a read of Redis yields no usable cookie. Each use pushes the idle expiry forward,
 * never past the absolute lifetime.
 */
@Injectable()
export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly config: DashboardConfig,
  ) {}

  async create(userId: number, passwordVersion: number): Promise<string> {
    const id = newBrowserId();
    const record: SessionRecord = { userId, passwordVersion, createdAt: Date.now() };
    await redisCall('session create', () => this.redis.set(sessionKey(id), JSON.stringify(record), 'EX', this.config.sessionIdleS));
    return id;
  }

  /** The user and password version of a live session, its expiry pushed forward; null when it is unknown or over. */
  async touch(id: string): Promise<{ userId: number; passwordVersion: number } | null> {
    const key = sessionKey(id);
    const raw = await redisCall('session read', () => this.redis.getex(key, 'EX', this.config.sessionIdleS));
    if (raw === null) return null;
    const record = parseRecord(raw);
    const leftMs = record ? record.createdAt + this.config.sessionMaxS * 1_000 - Date.now() : 0;
    if (!record || leftMs <= 0) {
      await this.destroy(id);
      return null;
    }
    if (leftMs < this.config.sessionIdleS * 1_000) await redisCall('session expiry', () => this.redis.pexpire(key, leftMs));
    return { userId: record.userId, passwordVersion: record.passwordVersion ?? 0 };
  }

  async destroy(id: string): Promise<void> {
    await redisCall('session delete', () => this.redis.del(sessionKey(id)));
  }
}

function sessionKey(id: string): string {
  return `session:${createHash('sha256').update(id).digest('hex')}`;
}

function parseRecord(raw: string): SessionRecord | null {
  try {
    const value = JSON.parse(raw) as Partial<SessionRecord>;
    const versionOk = value.passwordVersion === undefined || Number.isSafeInteger(value.passwordVersion);
    return Number.isSafeInteger(value.userId) && Number.isFinite(value.createdAt) && versionOk ? (value as SessionRecord) : null;
  } catch {
    return null;
  }
}
