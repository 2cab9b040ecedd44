import type { DbTransaction } from '../database/db-transaction.js';
import { keyOf, type ClientNumber, type OptOutsRepository } from '../opt-outs/opt-outs.repository.js';

/** The opt-out list as creates read it: the numbers a test puts on it. */
export class InMemoryOptOuts {
  private readonly optedOut = new Set<string>();

  add(clientId: number, recipient: string): void {
    this.optedOut.add(keyOf({ clientId, recipient }));
  }

  async lockForCreates(_tx: DbTransaction, _numbers: readonly ClientNumber[]): Promise<void> {}

  async optedOutAmong(numbers: readonly ClientNumber[]): Promise<Set<string>> {
    return new Set(numbers.map(keyOf).filter((key) => this.optedOut.has(key)));
  }

  /** Only what TaskCreationService calls is kept in memory. */
  asRepository(): OptOutsRepository {
    return this as unknown as OptOutsRepository;
  }
}
