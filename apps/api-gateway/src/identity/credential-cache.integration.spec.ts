import { createRedis } from '@smsq/platform';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache.js';

describe(CredentialCache.name, () => {
  let redis: Redis;
  let sut: CredentialCache;

  beforeAll(() => {
    redis = createRedis({ redisUrl: 'redis://127.0.0.1:6379', namespace: `test_cache_${randomBytes(4).toString('hex')}` });
    sut = new CredentialCache(redis);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('serves what was cached', async () => {
    await sut.set('key', 'h1', { keyId: 1, clientId: 2 });
    expect(await sut.get('key', 'h1')).toEqual({ revoked: false, value: { keyId: 1, clientId: 2 } });
  });

  it('reports a revoked credential as revoked even if a slow lookup caches it again afterwards', async () => {
    await sut.set('key', 'h2', { keyId: 3, clientId: 4 });
    await sut.revoke('key', 'h2');
    await sut.set('key', 'h2', { keyId: 3, clientId: 4 });
    expect(await sut.get('key', 'h2')).toEqual({ revoked: true });
  });

  it('lets a credential be touched at most once a minute', async () => {
    expect(await sut.shouldTouch('key', 77)).toBe(true);
    expect(await sut.shouldTouch('key', 77)).toBe(false);
  });

  it('lets only one of several gateways touch a credential in a minute, and each asks Redis once', async () => {
    const otherGateway = new CredentialCache(redis);
    expect(await otherGateway.shouldTouch('key', 78)).toBe(true);
    expect(await sut.shouldTouch('key', 78)).toBe(false);

    // The answer is remembered: with Redis's mark gone, neither gateway asks again within the minute.
    await redis.del('auth:seen:key:78');
    expect(await sut.shouldTouch('key', 78)).toBe(false);
    expect(await otherGateway.shouldTouch('key', 78)).toBe(false);
  });
});
