import type { SqlSession } from '@smsq/persistence';
import type { Prisma } from '../generated/prisma/client.js';
import type { DispatchDatabase } from './dispatch-database.js';

/** An open transaction; repositories run their raw SQL in it when given one. */
export type DbTransaction = SqlSession;

/** A transaction through Prisma's client, for the few that change rows with Prisma's model queries. */
export type PrismaTransaction = Prisma.TransactionClient;

/** Short transactions: locks are held only for a few statements, so waiting longer means trouble. */
const MAX_WAIT_MS = 5_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface TransactionOptions {
  /** For the rare transaction that must outlast a request to another service (the outbox relay). */
  timeoutMs?: number;
}

export function inTransaction<T>(db: DispatchDatabase, work: (tx: DbTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  return db.sql.transaction(work, { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
}

/** `inTransaction` through Prisma's client, whose model queries the work needs. */
export function inPrismaTransaction<T>(db: DispatchDatabase, work: (tx: PrismaTransaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  return db.$transaction(work, { maxWait: MAX_WAIT_MS, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
}
