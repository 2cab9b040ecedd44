import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { dueSignalChannel } from '@smsq/contracts';
import { RedisSubscription } from '@smsq/platform';
import { GatewayConfig } from '../config/gateway-config.js';

/** While the signals cannot be heard, a waiting poll looks again this often instead. */
const DEAF_RECHECK_MS = 2_000;

export interface DueWaiter {
  /**
   * Resolves when a task may have become due for this waiter, after `ms`, or when any of
   * `signals` aborts; its listeners on them go with it. Several signals rather than one made by
   * `AbortSignal.any`, which Node keeps linked to a source that never aborts (the gateway's own
   * shutdown), one more for every empty long poll.
   */
  wait(ms: number, ...signals: AbortSignal[]): Promise<void>;
  dispose(): void;
}

/**
 * Hears dispatch's "tasks became due" announcements (Redis pub/sub) and wakes the long polls
 * that could take them, so waiting requests never poll the database on a timer. A waiter is
 * registered before its claim attempt, so a signal that arrives in between is not missed.
 */
@Injectable()
export class DueSignals implements OnModuleInit, OnApplicationShutdown {
  private readonly waiters = new Set<{ phoneId: number | null; wake: () => void }>();
  private subscription: RedisSubscription | undefined;

  constructor(private readonly config: GatewayConfig) {}

  async onModuleInit(): Promise<void> {
    // Gone deaf, every waiter is woken, to wait again on the short timer.
    this.subscription = new RedisSubscription(this.config.redisUrl, dueSignalChannel(this.config.namespace), (phoneId) => this.announce(phoneId), () => this.wakeAll());
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscription?.close();
  }

  register(phoneId: number | null): DueWaiter {
    let woken = false;
    let wake: () => void = () => {
      woken = true;
    };
    const entry = { phoneId, wake: () => wake() };
    this.waiters.add(entry);
    return {
      wait: (ms, ...signals) =>
        new Promise<void>((resolve) => {
          if (woken || signals.some((signal) => signal.aborted)) return resolve();
          const limit = this.subscription?.hearing ? ms : Math.min(ms, DEAF_RECHECK_MS);
          const finish = () => {
            clearTimeout(timer);
            for (const signal of signals) signal.removeEventListener('abort', finish);
            woken = false;
            wake = () => {
              woken = true;
            };
            resolve();
          };
          const timer = setTimeout(finish, Math.max(0, limit));
          for (const signal of signals) signal.addEventListener('abort', finish, { once: true });
          wake = finish;
        }),
      dispose: () => void this.waiters.delete(entry),
    };
  }

  private wakeAll(): void {
    for (const waiter of this.waiters) waiter.wake();
  }

  private announce(phoneId: string): void {
    for (const waiter of this.waiters) if (waiter.phoneId === null || String(waiter.phoneId) === phoneId) waiter.wake();
  }
}
