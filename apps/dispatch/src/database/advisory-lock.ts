import type { DbTransaction } from './db-transaction.js';

/**
 * Takes a Postgres advisory lock named by `name` until the transaction ends. Unrelated names may
 * share a hash; that only serialises them, it never lets two holders of one name in at once.
 */
export async function lockUntilCommit(tx: DbTransaction, name: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
}
