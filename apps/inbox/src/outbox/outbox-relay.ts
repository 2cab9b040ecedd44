import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, Patterns, ReplyReceivedCommand } from '@smsq/contracts';
import { RepeatingJob, ServiceClient, serviceClientToken } from '@smsq/platform';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from '../database/inbox-database.js';

const RELAY_INTERVAL_MS = 300;
/** Events one round may deliver before it yields to the next; a backlog drains over several rounds. */
const ROUND_LIMIT = 200;

interface OutboxEntry {
  id: bigint;
  pattern: string;
  payload: unknown;
  attempts: number;
}

/**
 * Delivers inbox's outbox to dispatch: each event is sent while its row is locked, and marked
 * published in the same transaction once dispatch has answered. A crash in between sends it
 * again; dispatch queues each event id once, so that costs nothing.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly job = new RepeatingJob('outbox relay', RELAY_INTERVAL_MS, () => this.relayOnce().then(() => undefined), this.logger);

  constructor(
    private readonly db: InboxDatabase,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    private readonly config: InboxConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Answers how many events it delivered. */
  async relayOnce(): Promise<number> {
    let delivered = 0;
    let after = 0n;
    for (let tried = 0; tried < ROUND_LIMIT; tried++) {
      const step = await this.deliverNext(after);
      if (step === 'empty') break;
      after = step.id;
      if (step.result === 'delivered') delivered += 1;
      if (step.result === 'unavailable') break;
    }
    return delivered;
  }

  private deliverNext(after: bigint): Promise<'empty' | { id: bigint; result: 'delivered' | 'failed' | 'unavailable' }> {
    // The row stays locked while dispatch is asked, so the transaction must outlive that request.
    return this.db.$transaction(
      async (tx) => {
        const [entry] = await tx.$queryRaw<OutboxEntry[]>`
          SELECT id, pattern, payload, attempts FROM "inbox"."outbox_events"
           WHERE published_at IS NULL AND id > ${after}
           ORDER BY id
           LIMIT 1
             FOR UPDATE SKIP LOCKED`;
        if (!entry) return 'empty' as const;
        try {
          await this.send(entry);
          await tx.$executeRaw`UPDATE "inbox"."outbox_events" SET published_at = now(), attempts = attempts + 1 WHERE id = ${entry.id}`;
          return { id: entry.id, result: 'delivered' as const };
        } catch (error) {
          const detail = error instanceof Error ? error.message : String(error);
          this.logger.warn(`outbox event ${entry.id} (${entry.pattern}) not delivered, attempt ${entry.attempts + 1}: ${detail}`);
          await tx.$executeRaw`UPDATE "inbox"."outbox_events" SET attempts = attempts + 1, last_error = ${detail} WHERE id = ${entry.id}`;
          // An unreachable dispatch ends the round; any other refusal must not hold back the events after it.
          return { id: entry.id, result: error instanceof DomainError && error.code === 'unavailable' ? ('unavailable' as const) : ('failed' as const) };
        }
      },
      { maxWait: 5_000, timeout: this.config.rpcTimeoutMs + 5_000 },
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
