import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, Patterns, RefundCommand } from '@smsq/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BillingClient } from '../billing/billing.client.js';
import { DispatchConfig } from '../config/dispatch-config.js';
import { inTransaction } from '../database/db-transaction.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { RepeatingJob } from '@smsq/platform';
import { OutboxRepository, type OutboxEntry } from './outbox.repository.js';

export const RELAY_INTERVAL_MS = 300;
/** Messages one round may deliver before it yields to the next; a backlog drains over several rounds. */
const ROUND_LIMIT = 200;

export interface RelayOutcome {
  delivered: number;
  failed: number;
  /** true when a receiver was unreachable and the round stopped early; the rest waits for the next round. */
  interrupted: boolean;
}

/**
 * Delivers the outbox: each message is sent while its row is locked, and marked published in the
 * same transaction once the receiver has answered (request/response, so an answer means the
 * receiver committed). A crash after the answer but before the commit sends the message again,
 * which is why every message it carries is idempotent at its receiver.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly job = new RepeatingJob('outbox relay', RELAY_INTERVAL_MS, () => this.relayOnce(), this.logger);

  constructor(
    private readonly db: DispatchDatabase,
    private readonly outbox: OutboxRepository,
    private readonly billing: BillingClient,
    private readonly config: DispatchConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  async relayOnce(): Promise<RelayOutcome> {
    const outcome: RelayOutcome = { delivered: 0, failed: 0, interrupted: false };
    let after = 0n;
    for (let tried = 0; tried < ROUND_LIMIT; tried++) {
      const step = await this.deliverNext(after);
      if (step === 'empty') break;
      after = step.id;
      if (step.result === 'delivered') outcome.delivered += 1;
      else outcome.failed += 1;
      if (step.result === 'unavailable') {
        outcome.interrupted = true;
        break;
      }
    }
    if (outcome.delivered || outcome.failed) this.logger.log(`outbox: ${outcome.delivered} delivered, ${outcome.failed} not yet`);
    return outcome;
  }

  private deliverNext(after: bigint): Promise<'empty' | { id: bigint; result: 'delivered' | 'failed' | 'unavailable' }> {
    // The row stays locked while its receiver is asked, so the transaction must outlive that request.
    return inTransaction(
      this.db,
      async (tx) => {
        const entry = await this.outbox.lockNextUndelivered(tx, after);
        if (!entry) return 'empty' as const;
        try {
          await this.send(entry);
          await this.outbox.markPublished(tx, entry.id);
          return { id: entry.id, result: 'delivered' as const };
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          this.logger.warn(`outbox message ${entry.id} (${entry.pattern}) not delivered, attempt ${entry.attempts + 1}: ${detail}`);
          await this.outbox.markAttemptFailed(tx, entry.id, detail);
          // An unreachable receiver ends the round; any other refusal must not hold back the messages after it.
          const unavailable = error instanceof DomainError && error.code === 'unavailable';
          return { id: entry.id, result: unavailable ? ('unavailable' as const) : ('failed' as const) };
        }
      },
      { timeoutMs: this.config.rpcTimeoutMs + 5_000 },
    );
  }

  private async send(entry: OutboxEntry): Promise<void> {
    switch (entry.pattern) {
      case Patterns.billing.refund:
        await this.billing.refund(validPayload(RefundCommand, entry.payload));
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
