import { randomBytes } from 'node:crypto';
import { createRedis } from '@smsq/platform';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordResetThrottle } from './sign-in-throttle.js';
import { PASSWORD_RESET_THROTTLE } from './throttle-policy.js';

describe(`${PasswordResetThrottle.name} on Redis`, () => {
  let redis: Redis;
  let sut: PasswordResetThrottle;

  beforeAll(() => {
    redis = createRedis({ redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', namespace: `resettest_${randomBytes(4).toString('hex')}` });
    sut = new PasswordResetThrottle(redis);
  });

  afterAll(async () => {
    await redis?.quit();
  });

  it('drops the links of an address past its limit without refusing anyone, so its owner is never locked out', async () => {
    const admitted = [];
    for (let request = 0; request < PASSWORD_RESET_THROTTLE.emailLimit + 2; request++) admitted.push(await sut.admit('victim@example.test', `10.0.0.${request}`));

    expect(admitted).toEqual([true, true, true, false, false]);
    // Another address from those IPs is not held up.
    await expect(sut.admit('someone@example.test', '10.0.0.1')).resolves.toBe(true);
  });

  it('refuses an IP past its limit with rate_limited and a wait', async () => {
    const ip = '10.9.9.9';
    for (let request = 0; request < PASSWORD_RESET_THROTTLE.ipLimit; request++) await sut.admit(`user${request}@example.test`, ip);

    await expect(sut.admit('next@example.test', ip)).rejects.toMatchObject({ code: 'rate_limited', retryAfterS: expect.any(Number) });
  });
});
