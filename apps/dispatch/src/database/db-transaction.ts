import type { Prisma } from '../generated/prisma/client.js';
import type { DispatchDatabase } from './dispatch-database.js';

/** An open interactive transaction; repositories run their statements in it when given one. */
export type DbTransaction = Prisma.TransactionClient;

/** Short transactions: locks are held only for a few statements, so waiting longer means trouble. */
const MAX_WAIT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface TransactionOptions {
  /** For the rare transaction that must outlast a request to another service (the outbox relay). */
  timeoutMs?: number;
}

export function inTransaction<T>(db: DispatchDatabase, work: (tx: DbTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  return db.$transaction(work, { maxWait: MAX_WAIT_MS, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
}
