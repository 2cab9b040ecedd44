import { createRedis } from '@smsq/platform';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfig } from '../config/gateway-config.js';
import { RateLimiter } from './rate-limiter.js';

describe(RateLimiter.name, () => {
  let redis: Redis;
  let sut: RateLimiter;

  beforeAll(() => {
    redis = createRedis({ redisUrl: 'redis://127.0.0.1:6379', namespace: `test_rate_${randomBytes(4).toString('hex')}` });
    // One a second: a token comes back only after a second, so a busy machine's slow round trips to Redis do not refill the bucket mid-test.
    sut = new RateLimiter(redis, Object.assign(new GatewayConfig(), { rateLimitRps: 1 }));
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('allows a burst of twice the rate, then refuses with the seconds until the next token', async () => {
    const decisions = [];
    for (let request = 0; request < 3; request++) decisions.push(await sut.take('key:1'));
    expect(decisions.slice(0, 2).every((decision) => decision.allowed)).toBe(true);
    expect(decisions[2]).toEqual({ allowed: false, retryAfterS: 1 });
  });

  it('keeps one bucket per key', async () => {
    for (let request = 0; request < 2; request++) await sut.take('key:2');
    expect((await sut.take('key:2')).allowed).toBe(false);
    expect((await sut.take('key:3')).allowed).toBe(true);
  });

  it('decides atomically under concurrency', async () => {
    const decisions = await Promise.all(Array.from({ length: 40 }, () => sut.take('key:4')));
    expect(decisions.filter((decision) => decision.allowed).length).toBeGreaterThanOrEqual(2);
    expect(decisions.filter((decision) => decision.allowed).length).toBeLessThanOrEqual(3);
  });
});
