import type { Prisma } from '../generated/prisma/client.js';
import type { SmppDatabase } from './smpp-database.js';

export type SmppTransaction = Prisma.TransactionClient;

/** Work in one transaction that may span a deliver_sm round trip to a receiver (so up to `timeoutMs`). */
export function inTransaction<T>(db: SmppDatabase, work: (tx: SmppTransaction) => Promise<T>, timeoutMs: number): Promise<T> {
  return db.$transaction(work, { maxWait: 5_000, timeout: timeoutMs });
}
