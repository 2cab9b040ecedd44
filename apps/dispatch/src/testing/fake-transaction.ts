import type { DbTransaction } from '../database/db-transaction.js';
import type { InMemoryStore } from './in-memory-store.js';

/** The fakes never look inside a transaction; they only need something to pass along. */
export const FAKE_TRANSACTION = Object.freeze({}) as DbTransaction;

/** Runs `work` like a transaction: one at a time per lock name, and nothing kept if it throws. */
export class FakeTransactions {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: InMemoryStore) {}

  async run<T, Tx = DbTransaction>(lockName: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    const previous = this.queues.get(lockName) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(async () => {
      const rollback = this.store.snapshot();
      try {
        return await work(FAKE_TRANSACTION as unknown as Tx);
      } catch (error) {
        rollback();
        throw error;
      }
    });
    this.queues.set(lockName, current);
    return current;
  }
}
