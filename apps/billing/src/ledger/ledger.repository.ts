import { Injectable } from '@nestjs/common';
import type { BillingTransaction } from '../database/billing-database.js';
import type { LedgerEntry } from '../generated/prisma/client.js';
import type { CreditBucket, LedgerKind } from '../generated/prisma/enums.js';

export interface NewLedgerEntry {
  clientId: number;
  kind: LedgerKind;
  bucket: CreditBucket;
  /** Signed: what the entry adds to the balance. */
  amount: number;
  balanceAfter: number;
  taskKey?: string;
  reason?: string;
}

/** The append-only ledger: entries are only ever inserted. */
@Injectable()
export class LedgerRepository {
  async append(tx: BillingTransaction, entry: NewLedgerEntry): Promise<void> {
    await tx.ledgerEntry.create({ data: entry });
  }

  async entriesOf(tx: BillingTransaction, clientId: number): Promise<LedgerEntry[]> {
    return tx.ledgerEntry.findMany({ where: { clientId }, orderBy: { id: 'asc' } });
  }
}
