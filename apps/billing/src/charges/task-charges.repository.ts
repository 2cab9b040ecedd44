import { Injectable } from '@nestjs/common';
import { balanceOf, type Balances } from '../accounts/balance.js';
import type { BillingSnapshot, BillingTransaction } from '../database/billing-database.js';
import { Prisma, type TaskCharge } from '../generated/prisma/client.js';
import type { CreditBucket } from '../generated/prisma/enums.js';

export interface NewDebit {
  taskKey: string;
  clientId: number;
  bucket: CreditBucket;
  /** The account's buckets after this debit. */
  after: Balances;
  debitedAt: Date;
}

const CHARGE_COLUMNS = Prisma.sql`task_key AS "taskKey", client_id AS "clientId", bucket, state, debited_at AS "debitedAt", settled_at AS "settledAt"`;

@Injectable()
export class TaskChargesRepository {
  async find(tx: BillingTransaction, taskKey: string): Promise<TaskCharge | null> {
    const [charge] = await tx.$queryRaw<TaskCharge[]>`SELECT ${CHARGE_COLUMNS} FROM "billing"."task_charges" WHERE task_key = ${taskKey}::uuid`;
    return charge ?? null;
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
    return tx.$queryRaw<TaskCharge[]>`SELECT ${CHARGE_COLUMNS} FROM "billing"."task_charges" WHERE task_key = ANY (${[...taskKeys]}::uuid[])`;
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
    const changed = await tx.$executeRaw`UPDATE "billing"."task_charges" SET state = 'refunded', settled_at = ${at} WHERE task_key = ${taskKey}::uuid`;
    if (changed !== 1) throw new Error(`task key ${taskKey} has no charge to mark refunded`);
  }

  /** Keeps the charges that are still held (not settled some other way meanwhile); answers how many. */
  async markKept(tx: BillingTransaction, taskKeys: readonly string[], at: Date): Promise<number> {
    return tx.$executeRaw`
      UPDATE "billing"."task_charges" SET state = 'kept', settled_at = ${at} WHERE task_key = ANY (${[...taskKeys]}::uuid[]) AND state = 'held'`;
  }

  /** Held charges debited before `debitedBefore`, oldest first. */
  async heldSince(tx: BillingTransaction, debitedBefore: Date, limit: number): Promise<TaskCharge[]> {
    return tx.$queryRaw<TaskCharge[]>`
      SELECT ${CHARGE_COLUMNS} FROM "billing"."task_charges" WHERE state = 'held' AND debited_at < ${debitedBefore} ORDER BY debited_at LIMIT ${limit}`;
  }

  async chargesOf(tx: BillingSnapshot, clientId: number): Promise<TaskCharge[]> {
    return tx.taskCharge.findMany({ where: { clientId } });
  }
}
