import { Injectable, Logger } from '@nestjs/common';
import { dueSignalChannel } from '@smsq/contracts';
import { Redis } from 'ioredis';
import { DispatchConfig } from '../config/dispatch-config.js';

/**
 * Announces on Redis that tasks became due for a phone or gateway, so the gateway's long polls
 * wake at once instead of polling the database. The channel carries the namespace itself:
 * ioredis' key prefix never applies to pub/sub channels.
 */
@Injectable()
export class DueSignals {
  private readonly logger = new Logger(DueSignals.name);
  private readonly channel: string;

  constructor(
    private readonly redis: Redis,
    config: DispatchConfig,
  ) {
    this.channel = dueSignalChannel(config.namespace);
  }

  /** Best effort and never rejects: a lost signal only makes a waiting poll answer at its own deadline. */
  async announce(phoneIds: Iterable<number>): Promise<void> {
    for (const phoneId of new Set(phoneIds)) {
      try {
        await this.redis.publish(this.channel, String(phoneId));
      } catch (error) {
        this.logger.warn(`due signal for phone ${phoneId} not published: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
