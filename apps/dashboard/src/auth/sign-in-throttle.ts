import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { Redis } from 'ioredis';
import { redisCall } from './redis-call.js';
import { lockMsAfter, retryAfterSeconds, SIGN_IN_THROTTLE } from './throttle-policy.js';

/** 429 `rate_limited`, with how long to wait for the Retry-After header. */
export class SignInThrottledError extends DomainError {
  constructor(readonly retryAfterS: number) {
    super('rate_limited', `too many failed sign-ins; retry in ${retryAfterS} s`);
  }
}

interface Subject {
  failures: string;
  lock: string;
  limit: number;
}

/**
 * Failed sign-ins counted per address and per IP in Redis. While either is locked every attempt
 * is refused before the password is checked, so a lock cannot be used to test passwords.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly redis: Redis) {}

  async assertAllowed(email: string, ip: string): Promise<void> {
    const subjects = subjectsOf(email, ip);
    const remaining = await redisCall('sign-in lock read', () => Promise.all(subjects.map((subject) => this.redis.pttl(subject.lock))));
    const longest = Math.max(0, ...remaining);
    if (longest > 0) throw new SignInThrottledError(retryAfterSeconds(longest));
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    for (const subject of subjectsOf(email, ip)) {
      const failures = await redisCall('sign-in failure count', async () => {
        const [[, count]] = (await this.redis.multi().incr(subject.failures).pexpire(subject.failures, SIGN_IN_THROTTLE.windowMs).exec()) as [[Error | null, number]];
        return count;
      });
      const lockMs = lockMsAfter(failures, subject.limit);
      if (lockMs > 0) await redisCall('sign-in lock', () => this.redis.set(subject.lock, '1', 'PX', lockMs));
    }
  }

  /** A right password clears its address's count; the IP's stays, so one good account cannot reset it. */
  async recordSuccess(email: string): Promise<void> {
    const [byEmail] = subjectsOf(email, '');
    await redisCall('sign-in count reset', () => this.redis.del(byEmail!.failures, byEmail!.lock));
  }
}

function subjectsOf(email: string, ip: string): [Subject, Subject] {
  const emailKey = createHash('sha256').update(email).digest('hex');
  return [
    { failures: `signin:failures:email:${emailKey}`, lock: `signin:lock:email:${emailKey}`, limit: SIGN_IN_THROTTLE.emailLimit },
    { failures: `signin:failures:ip:${ip}`, lock: `signin:lock:ip:${ip}`, limit: SIGN_IN_THROTTLE.ipLimit },
  ];
}
