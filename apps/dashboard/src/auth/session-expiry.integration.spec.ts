import { randomBytes } from 'node:crypto';
import { createRedis, loadConfig } from '@smsq/platform';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readDashboardConfig, type DashboardConfig } from '../config/dashboard-config.js';
import { SessionStore } from './session-store.js';

const IDLE_S = 600;
const MAX_S = 3_600;

/**
 * Retention of sessions is Redis's expiry: every session key carries a TTL, never more than the
 * idle limit and never past the absolute lifetime, so an ended session vanishes with no pruning.
 */
describe(`${SessionStore.name}: ended sessions vanish from Redis`, () => {
  let config: DashboardConfig;
  let redis: Redis;
  let sut: SessionStore;

  beforeAll(() => {
    config = loadConfig(readDashboardConfig, {
      SMSQ_NAMESPACE: `sessexp_${randomBytes(4).toString('hex')}`,
      DASHBOARD_SESSION_IDLE_S: String(IDLE_S),
      DASHBOARD_SESSION_MAX_S: String(MAX_S),
    });
    redis = createRedis(config);
    sut = new SessionStore(redis, config);
  });

  afterAll(async () => {
    vi.useRealTimers();
    const keys = await redis.keys(`${config.namespace}:*`);
    if (keys.length > 0) await redis.unlink(...keys.map((key) => key.slice(`${config.namespace}:`.length)));
    await redis.quit();
  });

  /** Every session key of this namespace with its TTL in seconds (-1: none, which must never be). */
  async function sessionTtls(): Promise<number[]> {
    const keys = await redis.keys(`${config.namespace}:session:*`);
    return Promise.all(keys.map((key) => redis.ttl(key.slice(`${config.namespace}:`.length))));
  }

  it('gives a new session the idle limit as its TTL, and each use sets it back to that limit, never more', async () => {
    const id = await sut.create(1, 0);
    expect(await sessionTtls()).toEqual([expect.toSatisfy((ttl: number) => ttl > IDLE_S - 5 && ttl <= IDLE_S)]);

    expect(await sut.touch(id)).toEqual({ userId: 1, passwordVersion: 0 });
    expect((await sessionTtls()).every((ttl) => ttl > 0 && ttl <= IDLE_S)).toBe(true);
    await sut.destroy(id);
    expect(await sessionTtls()).toEqual([]);
  });

  it('lets a session near its absolute lifetime expire at that lifetime, however often it is used', async () => {
    const realNow = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: realNow });
    const id = await sut.create(2, 0);
    vi.setSystemTime(realNow + (MAX_S - 120) * 1_000);

    expect(await sut.touch(id)).toEqual({ userId: 2, passwordVersion: 0 });
    expect(await sessionTtls()).toEqual([expect.toSatisfy((ttl: number) => ttl > 100 && ttl <= 120)]);

    vi.setSystemTime(realNow + (MAX_S + 1) * 1_000);
    expect(await sut.touch(id)).toBeNull();
    expect(await sessionTtls()).toEqual([]);
    vi.useRealTimers();
  });
});
