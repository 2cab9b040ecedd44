import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Patterns, ReplyReceivedCommand } from '@smsq/contracts';
import {
  DEFAULT_OUTBOX_BACKOFF,
  OutboxRelayRounds,
  RepeatingJob,
  ServiceClient,
  serviceClientToken,
  type OutboxBackoff,
  type OutboxEntry,
  type OutboxTransaction,
  type RelayOutcome,
} from '@smsq/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from '../database/inbox-database.js';

const RELAY_INTERVAL_MS = 300;

/**
 * Delivers inbox's outbox (inbox.outbox_events) to dispatch. A crash after dispatch's answer but
 * before the commit sends an event again; dispatch queues each event id once, so that costs nothing.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly job = new RepeatingJob('outbox relay', RELAY_INTERVAL_MS, () => this.relayOnce(), this.logger);
  private rounds: OutboxRelayRounds<OutboxTransaction>;

  constructor(
    private readonly db: InboxDatabase,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    private readonly config: InboxConfig,
  ) {
    this.rounds = this.roundsWith(DEFAULT_OUTBOX_BACKOFF);
  }

  /** For tests that cannot wait a second for a retry. */
  withBackoff(backoff: OutboxBackoff): this {
    this.rounds = this.roundsWith(backoff);
    return this;
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  relayOnce(): Promise<RelayOutcome> {
    return this.rounds.relayOnce();
  }

  private roundsWith(backoff: OutboxBackoff): OutboxRelayRounds<OutboxTransaction> {
    return new OutboxRelayRounds<OutboxTransaction>(
      {
        table: '"inbox"."outbox_events"',
        database: this.db,
        // The row stays locked while dispatch is asked, so the transaction must outlive that request.
        transaction: (work) => this.db.$transaction(work, { maxWait: 5_000, timeout: this.config.rpcTimeoutMs + 5_000 }),
        send: (entry) => this.send(entry),
      },
      this.logger,
      backoff,
    );
  }

  private async send(entry: OutboxEntry): Promise<void> {
    if (entry.pattern !== Patterns.dispatch.webhookReplyReceived) throw new Error(`no receiver known for ${entry.pattern}`);
    const command = plainToInstance(ReplyReceivedCommand, entry.payload);
    const errors = validateSync(command, { whitelist: true, forbidNonWhitelisted: true });
    if (errors.length > 0) throw new Error(`invalid payload: ${errors.map((error) => error.toString()).join('; ')}`);
    await this.dispatch.send(entry.pattern, command);
  }
}
