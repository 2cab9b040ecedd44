import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, DomainError, domainErrorFrom } from '@smsq/contracts';
import { createHash, randomUUID } from 'node:crypto';
import { GatewayConfig, idempotencyAbandonedAfterMs } from '../config/gateway-config.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { UndecidedOutcomeError } from '@smsq/task-intake';

/** Where the work of one request with an Idempotency-Key can be told apart from any other's. */
export interface IdempotentWork<T> {
  /**
   * Does the work. `attemptKey` is the same for every gateway that looks at this record, so a
   * later request can find out what became of it when the gateway running it died.
   */
  run(attemptKey: string): Promise<T>;
  /**
   * Settles the work of a record left in progress by a gateway that died: its answer if the work
   * was done after all, undefined once it is certain it never will be. Throws while that cannot
   * be known yet.
   */
  recover(attemptKey: string): Promise<T | undefined>;
  /**
   * Looks again at a kept answer before it is replayed: a changed answer (undefined: unchanged)
   * is kept in its place. create-tasks learns here what became of items it could only answer
   * `unavailable`, as create-task's repeat learns it through `recover`.
   */
  refresh?(answer: T, attemptKey: string): Promise<T | undefined>;
}

/**
 * Idempotency-Key for create-task and create-tasks: the first final answer (the success, or a
 * 4xx) is kept and replayed to a repeat of the same body for SMSQ_RETENTION_IDEMPOTENCY_S (24 hours), so a retried request never
 * queues or debits twice. An answer that says "retry later" (5xx) is not kept: the retry runs afresh.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  /** A record still in progress after this long was left by a gateway that died mid-request: no create takes longer. */
  private readonly abandonedAfterMs: number;
  /** Past this age a record is replayed no more: a repeat starts afresh, and retention deletes it. */
  private readonly replayWindowMs: number;

  constructor(
    private readonly records: IdempotencyRepository,
    config: GatewayConfig,
  ) {
    this.abandonedAfterMs = idempotencyAbandonedAfterMs(config);
    this.replayWindowMs = config.idempotencyReplayS * 1_000;
  }

  /** `successStatus` is the HTTP status of the work's answer: a key first used on another endpoint is a conflict. */
  async run<T extends object>(clientId: number, key: string | undefined, body: unknown, work: IdempotentWork<T>, successStatus = 201): Promise<T> {
    if (key === undefined) return work.run(randomUUID());
    const requestHash = hashBody(body);
    const claimed = await this.claim(clientId, key, requestHash, successStatus, work);
    if ('replay' in claimed) return this.replay(clientId, key, successStatus, claimed.replay as T, attemptKeyOf(clientId, key, claimed.createdAt), work);
    let answer: T;
    try {
      answer = await work.run(attemptKeyOf(clientId, key, claimed.createdAt));
    } catch (error) {
      await this.settleFailure(clientId, key, claimed.createdAt, error);
      throw error;
    }
    // The task exists now: its record must never be dropped, or a retry would queue and charge again.
    await this.keepAnswer(clientId, key, successStatus, answer);
    return answer;
  }

  private async replay<T extends object>(clientId: number, key: string, successStatus: number, kept: T, attemptKey: string, work: IdempotentWork<T>): Promise<T> {
    const refreshed = await work.refresh?.(kept, attemptKey);
    if (refreshed === undefined) return kept;
    await this.keepAnswer(clientId, key, successStatus, refreshed);
    return refreshed;
  }

  private async keepAnswer(clientId: number, key: string, successStatus: number, answer: object): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        return await this.records.complete(clientId, key, successStatus, answer);
      } catch (error) {
        this.logger.warn(`answer to idempotency key ${key} of client ${clientId} not kept (attempt ${attempt}): ${(error as Error).message}`);
      }
    }
  }

  /** Starts a record, or answers the earlier outcome of the same request. */
  private async claim(clientId: number, key: string, requestHash: string, successStatus: number, work: IdempotentWork<object>): Promise<{ createdAt: Date } | { replay: object; createdAt: Date }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const createdAt = await this.records.tryInsert(clientId, key, requestHash);
      if (createdAt) return { createdAt };
      const existing = await this.records.find(clientId, key);
      if (!existing) continue;
      const age = Date.now() - existing.createdAt.getTime();
      if (age > this.replayWindowMs) {
        await this.records.removeIfCreatedAt(clientId, key, existing.createdAt);
        continue;
      }
      // Before any recovery: what an abandoned attempt did is read through this request's body, which must be the same.
      if (existing.requestHash !== requestHash) throw new ConflictError('this Idempotency-Key was used with a different body');
      if (existing.statusCode === null && (existing.undecidedAt !== null || age > this.abandonedAfterMs)) {
        // Its gateway gave up on it, or died mid-request: whatever that request did must become this record's answer, never a second task.
        // Settling needs no wait for a gateway that gave up: a create of its that arrives late finds its key voided.
        await this.recoverAbandoned(clientId, key, existing.createdAt, successStatus, work);
        continue;
      }
      if (existing.statusCode === null) throw new ConflictError('a request with this Idempotency-Key is still in progress');
      if (existing.statusCode === successStatus) return { replay: existing.response as object, createdAt: existing.createdAt };
      if (existing.statusCode < 300) throw new ConflictError('this Idempotency-Key was used on another endpoint');
      throw domainErrorFrom(existing.response) ?? new DomainError('internal_error', 'stored answer unreadable');
    }
    throw new ConflictError('this Idempotency-Key is being used concurrently');
  }

  private async recoverAbandoned(clientId: number, key: string, createdAt: Date, successStatus: number, work: IdempotentWork<object>): Promise<void> {
    const answer = await work.recover(attemptKeyOf(clientId, key, createdAt));
    if (answer === undefined) {
      await this.records.removeIfCreatedAt(clientId, key, createdAt);
      return;
    }
    this.logger.warn(`idempotency key ${key} of client ${clientId} was left in progress; its task was stored, so its answer is kept now`);
    await this.records.complete(clientId, key, successStatus, answer);
  }

  private async settleFailure(clientId: number, key: string, createdAt: Date, error: unknown): Promise<void> {
    try {
      if (error instanceof UndecidedOutcomeError) {
        this.logger.warn(`idempotency key ${key} of client ${clientId}: outcome unknown, left for a repeat to settle`);
        await this.records.markUndecided(clientId, key, createdAt);
      }
      else if (error instanceof DomainError && error.status < 500) await this.records.complete(clientId, key, error.status, error.toBody());
      // Only this request's own record: another may have replaced it meanwhile.
      else await this.records.removeIfCreatedAt(clientId, key, createdAt);
    } catch (cleanupError) {
      this.logger.warn(`idempotency record ${key} of client ${clientId} not settled: ${(cleanupError as Error).message}`);
    }
  }
}

/** A UUID derived from the record, so any gateway computes the same one for it. */
export function attemptKeyOf(clientId: number, key: string, createdAt: Date): string {
  return uuidFrom(`${clientId}\u0000${key}\u0000${createdAt.toISOString()}`);
}

/** The task key of one item of a request's attempt: the same on every gateway, different for each item. */
export function itemKeyOf(attemptKey: string, index: number): string {
  return uuidFrom(`${attemptKey}\u0000${index}`);
}

function uuidFrom(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  // Shaped as a version 8 (custom) UUID, RFC 9562.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The same JSON body, whatever its key order or spacing, hashes the same. */
export function hashBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
