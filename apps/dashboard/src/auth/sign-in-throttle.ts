import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { Redis } from 'ioredis';
import { redisCall } from './redis-call.js';
import { lockMsAfter, PASSWORD_RESET_THROTTLE, retryAfterSeconds, SIGN_IN_THROTTLE, type ThrottlePolicy } from './throttle-policy.js';

/** 429 `rate_limited`, with how long to wait for the Retry-After header. */
export class SignInThrottledError extends DomainError {
  constructor(
    readonly retryAfterS: number,
    what = 'failed sign-ins',
  ) {
    super('rate_limited', `too many ${what}; retry in ${retryAfterS} s`);
  }
}

interface Subject {
  failures: string;
  lock: string;
  limit: number;
}

/**
 * Attempts counted per address and per IP in Redis. While either is locked every attempt is
 * refused before anything else is checked, so a lock cannot be used to test passwords.
 */
abstract class AttemptThrottle {
  protected constructor(
    private readonly redis: Redis,
    private readonly name: string,
    private readonly policy: ThrottlePolicy,
    private readonly what: string,
  ) {}

  async assertAllowed(email: string, ip: string): Promise<void> {
    const longest = Math.max(0, ...(await this.lockedFor(email, ip)));
    if (longest > 0) throw new SignInThrottledError(retryAfterSeconds(longest), this.what);
  }

  /** How long the address and the IP each stay locked, in ms; 0 (or less) when not locked. */
  protected lockedFor(email: string, ip: string): Promise<number[]> {
    const subjects = this.subjectsOf(email, ip);
    return redisCall(`${this.name} lock read`, () => Promise.all(subjects.map((subject) => this.redis.pttl(subject.lock))));
  }

  protected refusal(lockedMs: number): SignInThrottledError {
    return new SignInThrottledError(retryAfterSeconds(lockedMs), this.what);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    for (const subject of this.subjectsOf(email, ip)) {
      const failures = await redisCall(`${this.name} failure count`, async () => {
        const [[, count]] = (await this.redis.multi().incr(subject.failures).pexpire(subject.failures, this.policy.windowMs).exec()) as [[Error | null, number]];
        return count;
      });
      const lockMs = lockMsAfter(failures, subject.limit, this.policy);
      if (lockMs > 0) await redisCall(`${this.name} lock`, () => this.redis.set(subject.lock, '1', 'PX', lockMs));
    }
  }

  /** A right password clears its address's count; the IP's stays, so one good account cannot reset it. */
  async recordSuccess(email: string): Promise<void> {
    const [byEmail] = this.subjectsOf(email, '');
    await redisCall(`${this.name} count reset`, () => this.redis.del(byEmail!.failures, byEmail!.lock));
  }

  private subjectsOf(email: string, ip: string): [Subject, Subject] {
    const emailKey = createHash('sha256').update(email).digest('hex');
    return [
      { failures: `${this.name}:failures:email:${emailKey}`, lock: `${this.name}:lock:email:${emailKey}`, limit: this.policy.emailLimit },
      { failures: `${this.name}:failures:ip:${ip}`, lock: `${this.name}:lock:ip:${ip}`, limit: this.policy.ipLimit },
    ];
  }
}

/** Failed sign-ins (and wrong current passwords), per address and per IP. */
@Injectable()
export class SignInThrottle extends AttemptThrottle {
  constructor(redis: Redis) {
    super(redis, 'signin', SIGN_IN_THROTTLE, 'failed sign-ins');
  }
}

/** Password reset requests, each one counted: a mailbox cannot be flooded, nor addresses tried in bulk from one IP. */
@Injectable()
export class PasswordResetThrottle extends AttemptThrottle {
  constructor(redis: Redis) {
    super(redis, 'reset', PASSWORD_RESET_THROTTLE, 'password reset requests');
  }

  /**
   * Counts a request and says whether its link may go out. An IP past its limit is refused (429).
   * An address past its limit is not: the request is answered as any other and its link silently
   * dropped, so asking for links in someone's name can flood neither their mailbox nor lock them
   * out of resetting (the links already sent still work).
   */
  async admit(email: string, ip: string): Promise<boolean> {
    const [address = 0, fromIp = 0] = await this.lockedFor(email, ip);
    if (fromIp > 0) throw this.refusal(fromIp);
    await this.recordFailure(email, ip);
    return address <= 0;
  }
}
