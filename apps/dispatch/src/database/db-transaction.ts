import type { Prisma } from '../generated/prisma/client.js';
import type { DispatchDatabase } from './dispatch-database.js';

/** An open interactive transaction; repositories run their statements in it when given one. */
export type DbTransaction = Prisma.TransactionClient;

/** Short transactions: locks are held only for a few statements, so waiting longer means trouble. */
const TRANSACTION_OPTIONS = { maxWait: 5_000, timeout: 10_000 } as const;

export function inTransaction<T>(db: DispatchDatabase, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  return db.$transaction(work, TRANSACTION_OPTIONS);
}
