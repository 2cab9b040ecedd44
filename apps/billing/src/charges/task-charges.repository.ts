import { Injectable } from '@nestjs/common';
import { balanceOf, type Balances } from '../accounts/balance.js';
import type { BillingTransaction } from '../database/billing-database.js';
import type { TaskCharge } from '../generated/prisma/client.js';
import type { CreditBucket } from '../generated/prisma/enums.js';

export interface NewDebit {
  taskKey: string;
  clientId: number;
  bucket: CreditBucket;
  /** The account's buckets after this debit. */
  after: Balances;
  debitedAt: Date;
}

@Injectable()
export class TaskChargesRepository {
  async find(tx: BillingTransaction, taskKey: string): Promise<TaskCharge | null> {
    return tx.taskCharge.findUnique({ where: { taskKey } });
  }

  /**
   * The account's new balance, the charge and its ledger entry, written by one statement: the
   * account's row lock is held for one round trip to Postgres instead of three (docs/performance.md).
   * A key charged already writes nothing and answers false, so the usual debit needs no lookup first.
   */
  async recordDebit(tx: BillingTransaction, debit: NewDebit): Promise<boolean> {
    const written = await tx.$executeRaw`
      WITH charge AS (
        INSERT INTO "billing"."task_charges" (task_key, client_id, bucket, debited_at)
        VALUES (${debit.taskKey}::uuid, ${debit.clientId}, ${debit.bucket}::"billing"."credit_bucket", ${debit.debitedAt})
        ON CONFLICT (task_key) DO NOTHING
        RETURNING task_key, client_id, bucket
      ), account AS (
        UPDATE "billing"."accounts" a
           SET daily_remaining = ${debit.after.dailyRemaining}, bonus_remaining = ${debit.after.bonusRemaining}, updated_at = ${debit.debitedAt}
          FROM charge
         WHERE a.client_id = charge.client_id
        RETURNING a.client_id
      )
      INSERT INTO "billing"."ledger_entries" (client_id, kind, bucket, amount, task_key, balance_after)
      SELECT charge.client_id, 'debit', charge.bucket, -1, charge.task_key, ${balanceOf(debit.after)}
        FROM charge JOIN account ON account.client_id = charge.client_id`;
    return written === 1;
  }

  async markRefunded(tx: BillingTransaction, taskKey: string, at: Date): Promise<void> {
    await tx.taskCharge.update({ where: { taskKey }, data: { state: 'refunded', settledAt: at } });
  }

  /** Keeps a charge that is still held; false when it was settled some other way meanwhile. */
  async markKept(tx: BillingTransaction, taskKey: string, at: Date): Promise<boolean> {
    const { count } = await tx.taskCharge.updateMany({ where: { taskKey, state: 'held' }, data: { state: 'kept', settledAt: at } });
    return count === 1;
  }

  /** Held charges debited before `debitedBefore`, oldest first. */
  async heldSince(tx: BillingTransaction, debitedBefore: Date, limit: number): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({
      where: { state: 'held', debitedAt: { lt: debitedBefore } },
      orderBy: { debitedAt: 'asc' },
      take: limit,
    });
  }

  async chargesOf(tx: BillingTransaction, clientId: number): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({ where: { clientId } });
  }
}
