import type { DbTransaction } from './db-transaction.js';

/**
 * Takes a Postgres advisory lock named by `name` until the transaction ends. Unrelated names may
 * share a hash; that only serialises them, it never lets two holders of one name in at once.
 */
export async function lockUntilCommit(tx: DbTransaction, name: string): Promise<void> {
  await lockAllUntilCommit(tx, [name]);
}

/**
 * `lockUntilCommit` for several names in one round trip, taken one after another in the order
 * given: callers that lock more than one name keep to one order, so that they never deadlock.
 * The statement is sent as soon as this is called (the lock helpers here all do), so statements
 * sent after it in a `PgSql` transaction (a pipelined connection) run once the locks are held,
 * whether or not the caller waited for the answer first. A Prisma transaction gives no such order:
 * there, wait for the lock before sending what it guards.
 */
export async function lockAllUntilCommit(tx: DbTransaction, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(l.name, 0)) FROM unnest(${names}::text[]) WITH ORDINALITY AS l(name, position)`;
}

/**
 * Shared advisory locks on `names`, in the order given: holders of the shared lock never wait on
 * each other, only on a holder of the same name's exclusive lock (`lockUntilCommit`), and it on them.
 */
export async function lockAllSharedUntilCommit(tx: DbTransaction, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(l.name, 0)) FROM unnest(${names}::text[]) WITH ORDINALITY AS l(name, position)`;
}
