import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Patterns, RefundCommand, SmppTaskEndedCommand } from '@smsq/contracts';
import { DEFAULT_OUTBOX_BACKOFF, OutboxRelayRounds, RepeatingJob, serviceClientToken, type OutboxBackoff, type OutboxEntry, type RelayOutcome, type ServiceClient } from '@smsq/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BillingClient } from '../billing/billing.client.js';
import { DispatchConfig } from '../config/dispatch-config.js';
import { inTransaction, type DbTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';

export type { RelayOutcome };
export const RELAY_INTERVAL_MS = 300;

/**
 * Delivers dispatch's outbox (dispatch.outbox_messages) to billing, and the ends of tasks that
 * asked for delivery receipts to the SMPP service. A crash after billing's answer
 * but before the commit sends a message again, which is why every message it carries is
 * idempotent at its receiver.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly job = new RepeatingJob('outbox relay', RELAY_INTERVAL_MS, () => this.relayOnce(), this.logger);
  private rounds: OutboxRelayRounds<DbTransaction>;

  constructor(
    private readonly db: DispatchDatabase,
    private readonly billing: BillingClient,
    private readonly config: DispatchConfig,
    @Inject(serviceClientToken('smpp')) private readonly smpp: ServiceClient,
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

  private roundsWith(backoff: OutboxBackoff): OutboxRelayRounds<DbTransaction> {
    return new OutboxRelayRounds<DbTransaction>(
      {
        table: '"dispatch"."outbox_messages"',
        database: this.db.sql,
        // The row stays locked while billing is asked, so the transaction must outlive that request.
        transaction: (work) => inTransaction(this.db, work, { timeoutMs: this.config.rpcTimeoutMs + 5_000 }),
        send: (entry) => this.send(entry),
      },
      this.logger,
      backoff,
    );
  }

  private async send(entry: OutboxEntry): Promise<void> {
    switch (entry.pattern) {
      case Patterns.billing.refund:
        await this.billing.refund(validPayload(RefundCommand, entry.payload));
        return;
      case Patterns.smpp.taskEnded:
        await this.smpp.send(Patterns.smpp.taskEnded, validPayload(SmppTaskEndedCommand, entry.payload));
        return;
      default:
        throw new Error(`no receiver known for ${entry.pattern}`);
    }
  }
}

/** What the outbox holds was written by this service, but a message is checked as strictly as one received. */
function validPayload<T extends object>(type: new () => T, payload: unknown): T {
  const instance = plainToInstance(type, payload);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw new Error(`invalid payload: ${errors.map((error) => error.toString()).join('; ')}`);
  return instance;
}
