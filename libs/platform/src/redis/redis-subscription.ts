import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { REDIS_SILENCE_BOUNDS, reportOutages } from './redis.module.js';

/** How often a subscription asks Redis whether it still hears it. */
export const SUBSCRIPTION_HEARTBEAT_MS = 2_000;

/**
 * One Redis channel, heard on a connection of its own. A subscriber only receives, so a silent
 * connection would look like a quiet channel for ever: a PING every two seconds tells them apart.
 * A PING left unanswered counts as deaf at once (`onDeaf`, so waiters stop trusting the channel),
 * and its socket time-out drops the connection, which reconnects and subscribes again.
 */
export class RedisSubscription {
  private readonly logger = new Logger(RedisSubscription.name);
  private readonly connection: Redis;
  private readonly heartbeat: NodeJS.Timeout;
  private subscribed = false;

  constructor(
    redisUrl: string,
    private readonly channel: string,
    onMessage: (message: string) => void,
    private readonly onDeaf: () => void,
  ) {
    // Subscribed again by hand on every connection, so `hearing` only turns true once Redis confirmed it.
    this.connection = new Redis(redisUrl, { ...REDIS_SILENCE_BOUNDS, maxRetriesPerRequest: null, autoResubscribe: false });
    reportOutages(this.connection, redisUrl, this.logger);
    this.connection.on('message', (from: string, message: string) => {
      if (from === channel) onMessage(message);
    });
    this.connection.on('ready', () => void this.subscribe());
    this.connection.on('close', () => this.deaf());
    this.heartbeat = setInterval(() => void this.listen(), SUBSCRIPTION_HEARTBEAT_MS).unref();
  }

  /** Whether a message published now would be heard. */
  get hearing(): boolean {
    return this.subscribed;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.connection.disconnect();
  }

  private async subscribe(): Promise<void> {
    try {
      await this.connection.subscribe(this.channel);
      this.subscribed = true;
    } catch (error) {
      this.logger.warn(`not subscribed to ${this.channel}: ${(error as Error).message}`);
    }
  }

  private async listen(): Promise<void> {
    if (this.connection.status !== 'ready') return this.deaf();
    try {
      await this.connection.ping();
      // Deaf through a slow spell that never dropped the connection: subscribing again is harmless.
      if (!this.subscribed) await this.subscribe();
    } catch {
      this.deaf();
    }
  }

  private deaf(): void {
    if (!this.subscribed) return;
    this.subscribed = false;
    this.onDeaf();
  }
}
