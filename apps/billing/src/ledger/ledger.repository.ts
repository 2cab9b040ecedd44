import { Injectable } from '@nestjs/common';
import type { BillingSnapshot, BillingTransaction } from '../database/billing-database.js';
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
    await tx.$executeRaw`
      INSERT INTO "billing"."ledger_entries" (client_id, kind, bucket, amount, balance_after, task_key, reason)
      VALUES (${entry.clientId}, ${entry.kind}::"billing"."ledger_kind", ${entry.bucket}::"billing"."credit_bucket", ${entry.amount}, ${entry.balanceAfter},
              ${entry.taskKey ?? null}::uuid, ${entry.reason ?? null})`;
  }

  async entriesOf(tx: BillingSnapshot, clientId: number): Promise<LedgerEntry[]> {
    return tx.ledgerEntry.findMany({ where: { clientId }, orderBy: { id: 'asc' } });
  }
}
