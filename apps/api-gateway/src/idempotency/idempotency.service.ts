import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, DomainError, domainErrorFrom } from '@smsq/contracts';
import { createHash } from 'node:crypto';
import { IdempotencyRepository } from './idempotency.repository.js';

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A record still in progress after this long was left by a gateway that died mid-request (longer than any create may take). */
const ABANDONED_AFTER_MS = 60 * 1000;

/**
 * Idempotency-Key for create-task: the first final answer (201 or a 4xx) is kept and replayed to
 * a repeat of the same body for 24 hours, so a retried request never queues or debits twice.
 * An answer that says "retry later" (5xx) is not kept: the retry runs afresh.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);

  constructor(private readonly records: IdempotencyRepository) {}

  async run<T extends object>(clientId: number, key: string | undefined, body: unknown, work: () => Promise<T>): Promise<T> {
    if (key === undefined) return work();
    const requestHash = hashBody(body);
    const replay = await this.claim(clientId, key, requestHash);
    if (replay) return replay as T;
    let answer: T;
    try {
      answer = await work();
    } catch (error) {
      await this.settleFailure(clientId, key, error);
      throw error;
    }
    // The task exists now: its record must never be dropped, or a retry would queue and charge again.
    await this.keepAnswer(clientId, key, answer);
    return answer;
  }

  private async keepAnswer(clientId: number, key: string, answer: object): Promise<void> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        return await this.records.complete(clientId, key, 201, answer);
      } catch (error) {
        this.logger.warn(`answer to idempotency key ${key} of client ${clientId} not kept (attempt ${attempt}): ${(error as Error).message}`);
      }
    }
  }

  /** Starts a record, or answers the earlier outcome of the same request. */
  private async claim(clientId: number, key: string, requestHash: string): Promise<object | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.records.tryInsert(clientId, key, requestHash)) return undefined;
      const existing = await this.records.find(clientId, key);
      if (!existing) continue;
      const age = Date.now() - existing.createdAt.getTime();
      if (age > REPLAY_WINDOW_MS || (existing.statusCode === null && age > ABANDONED_AFTER_MS)) {
        await this.records.removeIfCreatedAt(clientId, key, existing.createdAt);
        continue;
      }
      if (existing.requestHash !== requestHash) throw new ConflictError('this Idempotency-Key was used with a different body');
      if (existing.statusCode === null) throw new ConflictError('a request with this Idempotency-Key is still in progress');
      if (existing.statusCode === 201) return existing.response as object;
      throw domainErrorFrom(existing.response) ?? new DomainError('internal_error', 'stored answer unreadable');
    }
    throw new ConflictError('this Idempotency-Key is being used concurrently');
  }

  private async settleFailure(clientId: number, key: string, error: unknown): Promise<void> {
    try {
      if (error instanceof DomainError && error.status < 500) await this.records.complete(clientId, key, error.status, error.toBody());
      else await this.records.remove(clientId, key);
    } catch (cleanupError) {
      this.logger.warn(`idempotency record ${key} of client ${clientId} not settled: ${(cleanupError as Error).message}`);
    }
  }
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
