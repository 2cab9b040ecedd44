import type { Logger } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';

/** A message waiting in a service's outbox table. */
export interface OutboxEntry {
  id: bigint;
  pattern: string;
  payload: unknown;
  attempts: number;
  nextAttemptAt: Date;
}

export interface RelayOutcome {
  delivered: number;
  failed: number;
  /** true when a receiver was unreachable and the round stopped early; the rest waits for the next round. */
  interrupted: boolean;
}

/** The statements the relay needs of an open transaction; both services' transactions (`PgSql`, or Prisma's) have them. */
export interface OutboxTransaction {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface OutboxBackoff {
  /** The wait after a message's first refusal; each next one doubles, up to `maxMs`. */
  baseMs: number;
  maxMs: number;
}

/**
 * A refused message is retried after 1 s, 2 s, 4 s… and then every 5 minutes: a refusal is a bug or
 * a receiver briefly behind (a rolling deploy), fixed in minutes without an operator, while a
 * message that stays bad costs one request per 5 minutes.
 */
export const DEFAULT_OUTBOX_BACKOFF: OutboxBackoff = { baseMs: 1_000, maxMs: 5 * 60_000 };

export interface OutboxRelayTable<Tx extends OutboxTransaction> {
  /** The outbox table, schema-qualified and quoted: `"dispatch"."outbox_messages"`. */
  table: string;
  /** Runs `work` in one transaction, long enough for a request to the receiver. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Statements outside a transaction: the round's first look, whether anything is due at all and the time it began. */
  database: Pick<OutboxTransaction, '$queryRawUnsafe'>;
  /** Sends one message and resolves once its receiver has answered; throws when it did not take it. */
  send(entry: OutboxEntry): Promise<void>;
}

/** Messages one round may deliver before it yields to the next; a backlog drains over several rounds. */
const ROUND_LIMIT = 200;

/**
 * One round of an outbox relay: due unpublished messages in (next_attempt_at, id) order, each sent
 * while its row is locked (SKIP LOCKED, so relays of several instances never send one at once) and
 * marked published in the same transaction once the receiver answered. A refused message backs off
 * on its own, so it never delays the messages queued after it.
 */
export class OutboxRelayRounds<Tx extends OutboxTransaction> {
  constructor(
    private readonly outbox: OutboxRelayTable<Tx>,
    private readonly logger: Logger,
    private readonly backoff: OutboxBackoff = DEFAULT_OUTBOX_BACKOFF,
  ) {}

  async relayOnce(): Promise<RelayOutcome> {
    const outcome: RelayOutcome = { delivered: 0, failed: 0, interrupted: false };
    const dueBy = await this.startIfDue();
    if (!dueBy) return outcome;
    let after: Pick<OutboxEntry, 'id' | 'nextAttemptAt'> | null = null;
    for (let tried = 0; tried < ROUND_LIMIT; tried++) {
      const step = await this.deliverNext(dueBy, after);
      if (step === 'empty') break;
      after = step.entry;
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

  /**
   * The database's time when the round began, or null when nothing is due. Most rounds find
   * nothing: one plain statement says so, where opening a transaction to lock nothing took three
   * round trips and most of an idle service's CPU. The round then takes only messages due by that
   * time, so a message refused early in a slow round is not asked again before the round ends.
   */
  private async startIfDue(): Promise<Date | null> {
    const [row] = await this.outbox.database.$queryRawUnsafe<{ now: Date }[]>(
      `SELECT now() AS now FROM ${this.outbox.table} WHERE published_at IS NULL AND next_attempt_at <= now() LIMIT 1`,
    );
    return row?.now ?? null;
  }

  private deliverNext(
    dueBy: Date,
    after: Pick<OutboxEntry, 'id' | 'nextAttemptAt'> | null,
  ): Promise<'empty' | { entry: OutboxEntry; result: 'delivered' | 'failed' | 'unavailable' }> {
    const { table } = this.outbox;
    return this.outbox.transaction(async (tx) => {
      const [entry] = await tx.$queryRawUnsafe<OutboxEntry[]>(
        `SELECT id, pattern, payload, attempts, next_attempt_at AS "nextAttemptAt" FROM ${table}
          WHERE published_at IS NULL AND next_attempt_at <= $3::timestamptz
            AND ($1::timestamptz IS NULL OR (next_attempt_at, id) > ($1::timestamptz, $2::bigint))
          ORDER BY next_attempt_at, id
          LIMIT 1
            FOR UPDATE SKIP LOCKED`,
        after?.nextAttemptAt ?? null,
        after?.id ?? 0n,
        dueBy,
      );
      if (!entry) return 'empty' as const;
      try {
        await this.outbox.send(entry);
        await tx.$executeRawUnsafe(`UPDATE ${table} SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`, entry.id);
        return { entry, result: 'delivered' as const };
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        const unavailable = error instanceof DomainError && error.code === 'unavailable';
        this.logger.warn(`outbox message ${entry.id} (${entry.pattern}) not delivered, attempt ${entry.attempts + 1}: ${detail}`);
        // An unreachable receiver says nothing about the message: it keeps its turn and the round stops.
        // A refusal is the message's own, so it alone waits, and the round goes on to the ones after it.
        const nextAttemptAt = unavailable ? entry.nextAttemptAt : new Date(Date.now() + this.refusedWaitMs(entry.attempts + 1));
        await tx.$executeRawUnsafe(
          `UPDATE ${table} SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3::timestamptz WHERE id = $1`,
          entry.id,
          detail,
          nextAttemptAt,
        );
        return { entry, result: unavailable ? ('unavailable' as const) : ('failed' as const) };
      }
    });
  }

  /** Doubling from the base with the attempts so far, capped, jittered ±20 % so refused messages do not return in step. */
  private refusedWaitMs(attempts: number): number {
    const wait = Math.min(this.backoff.baseMs * 2 ** Math.min(attempts - 1, 30), this.backoff.maxMs);
    return wait * (0.8 + Math.random() * 0.4);
  }
}
