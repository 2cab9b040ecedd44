import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { EnvReader } from '../config/env-reader.js';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterS: number };

/**
 * A token bucket per caller (an API key, an SMPP credential), in Redis so every gateway instance shares it: `rate` tokens a
 * second, up to `burst`. One script call decides and takes atomically, on Redis's own clock.
 */
const TOKEN_BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local retry_ms = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  retry_ms = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return retry_ms
`;

/**
 * Buckets of `rate` a second, burst twice that, shared by every instance through Redis. With Redis
 * away every call is allowed: the limit is a courtesy, credits are the hard stop.
 */
export class TokenBuckets {
  private readonly logger = new Logger(TokenBuckets.name);

  constructor(
    private readonly redis: Redis,
    /** Per second; 0 turns the limit off. */
    private readonly rate: number,
  ) {
    redis.defineCommand('takeToken', { numberOfKeys: 1, lua: TOKEN_BUCKET });
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  async take(bucket: string): Promise<RateDecision> {
    if (!this.enabled) return { allowed: true };
    try {
      const runner = this.redis as Redis & { takeToken(key: string, rate: number, burst: number): Promise<number> };
      const retryMs = await runner.takeToken(`rate:${bucket}`, this.rate, this.rate * 2);
      return retryMs === 0 ? { allowed: true } : { allowed: false, retryAfterS: Math.max(1, Math.ceil(retryMs / 1000)) };
    } catch (error) {
      this.logger.warn(`rate limit not checked: ${(error as Error).message}`);
      return { allowed: true };
    }
  }
}

/** SMSQ_RATE_LIMIT_RPS: requests per second per API key, and submit_sm per SMPP credential; 0 turns the limit off. */
export function readRateLimitRps(env: EnvReader): number {
  return env.int('SMSQ_RATE_LIMIT_RPS', 50, { min: 0, max: 1_000_000 });
}
