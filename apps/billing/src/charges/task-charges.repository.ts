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

  /** The charges of these keys that exist. */
  async findMany(tx: BillingTransaction, taskKeys: readonly string[]): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({ where: { taskKey: { in: [...taskKeys] } } });
  }

  /**
   * A batch's debits, in order, by one statement: their charges, their ledger entries (each with
   * the balance after it) and each account's balance after the last of them. The caller holds the
   * accounts' locks and has made sure no key is charged already: a key charged meanwhile by
   * another account's transaction fails the statement rather than writing a second charge.
   */
  async recordDebits(tx: BillingTransaction, debits: readonly NewDebit[], debitedAt: Date): Promise<void> {
    const finalBalances = new Map(debits.map((debit) => [debit.clientId, debit.after]));
    await tx.$executeRaw`
      WITH charge AS (
        INSERT INTO "billing"."task_charges" (task_key, client_id, bucket, debited_at)
        SELECT d.task_key, d.client_id, d.bucket::"billing"."credit_bucket", ${debitedAt}
          FROM unnest(${debits.map((d) => d.taskKey)}::uuid[], ${debits.map((d) => d.clientId)}::int[], ${debits.map((d) => d.bucket)}::text[])
            AS d(task_key, client_id, bucket)
      ), account AS (
        UPDATE "billing"."accounts" a
           SET daily_remaining = b.daily_remaining, bonus_remaining = b.bonus_remaining, updated_at = ${debitedAt}
          FROM unnest(${[...finalBalances.keys()]}::int[], ${[...finalBalances.values()].map((b) => b.dailyRemaining)}::int[],
                      ${[...finalBalances.values()].map((b) => b.bonusRemaining)}::int[]) AS b(client_id, daily_remaining, bonus_remaining)
         WHERE a.client_id = b.client_id
      )
      INSERT INTO "billing"."ledger_entries" (client_id, kind, bucket, amount, task_key, balance_after)
      SELECT d.client_id, 'debit'::"billing"."ledger_kind", d.bucket::"billing"."credit_bucket", -1, d.task_key, d.balance_after
        FROM unnest(${debits.map((d) => d.taskKey)}::uuid[], ${debits.map((d) => d.clientId)}::int[], ${debits.map((d) => d.bucket)}::text[],
                    ${debits.map((d) => balanceOf(d.after))}::int[]) WITH ORDINALITY AS d(task_key, client_id, bucket, balance_after, position)
       ORDER BY d.position`;
  }

  async markRefunded(tx: BillingTransaction, taskKey: string, at: Date): Promise<void> {
    await tx.taskCharge.update({ where: { taskKey }, data: { state: 'refunded', settledAt: at } });
  }

  /** Keeps the charges that are still held (not settled some other way meanwhile); answers how many. */
  async markKept(tx: BillingTransaction, taskKeys: readonly string[], at: Date): Promise<number> {
    const { count } = await tx.taskCharge.updateMany({ where: { taskKey: { in: [...taskKeys] }, state: 'held' }, data: { state: 'kept', settledAt: at } });
    return count;
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
