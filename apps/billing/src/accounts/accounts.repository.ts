import { Injectable } from '@nestjs/common';
import type { BillingSnapshot, BillingTransaction } from '../database/billing-database.js';
import { Prisma, type Account } from '../generated/prisma/client.js';
import type { AccountState } from './account-rules.js';

const ACCOUNT_COLUMNS = Prisma.sql`client_id AS "clientId", plan, daily_allowance AS "dailyAllowance", phone_limit AS "phoneLimit",
  daily_remaining AS "dailyRemaining", bonus_remaining AS "bonusRemaining",
  period_started_at AS "periodStartedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

type AccountChanges = Partial<Omit<AccountState, 'clientId'>>;

/** The column of each field an update may change. */
const COLUMN_OF: Record<keyof AccountChanges, string> = {
  plan: 'plan',
  dailyAllowance: 'daily_allowance',
  phoneLimit: 'phone_limit',
  dailyRemaining: 'daily_remaining',
  bonusRemaining: 'bonus_remaining',
  periodStartedAt: 'period_started_at',
};

@Injectable()
export class AccountsRepository {
  /** Inserts the account unless the client has one; true when this call created it. */
  async createIfMissing(tx: BillingTransaction, account: AccountState): Promise<boolean> {
    const created = await tx.$executeRaw`
      INSERT INTO "billing"."accounts" (client_id, plan, daily_allowance, phone_limit, daily_remaining, bonus_remaining, period_started_at, updated_at)
      VALUES (${account.clientId}, ${account.plan}, ${account.dailyAllowance}, ${account.phoneLimit}, ${account.dailyRemaining}, ${account.bonusRemaining},
              ${account.periodStartedAt}, ${new Date()})
      ON CONFLICT DO NOTHING`;
    return created === 1;
  }

  /** Reads the account and holds its row lock until the transaction ends; null when there is none. */
  async lock(tx: BillingTransaction, clientId: number): Promise<Account | null> {
    const rows = await tx.$queryRaw<Account[]>`
      SELECT ${ACCOUNT_COLUMNS} FROM "billing"."accounts" WHERE client_id = ${clientId} FOR UPDATE`;
    return rows[0] ?? null;
  }

  /** `lock` for several accounts, taking their row locks in the order of their ids; missing ones are left out. */
  async lockMany(tx: BillingTransaction, clientIds: readonly number[]): Promise<Account[]> {
    return tx.$queryRaw<Account[]>`
      SELECT ${ACCOUNT_COLUMNS} FROM "billing"."accounts" WHERE client_id = ANY(${clientIds}::int[]) ORDER BY client_id FOR UPDATE`;
  }

  async update(tx: BillingTransaction, clientId: number, changes: AccountChanges): Promise<Account> {
    const sets = (Object.keys(COLUMN_OF) as Array<keyof AccountChanges>)
      .filter((field) => changes[field] !== undefined)
      .map((field) => Prisma.sql`${Prisma.raw(COLUMN_OF[field])} = ${changes[field]}`);
    const [account] = await tx.$queryRaw<Account[]>`
      UPDATE "billing"."accounts" SET ${Prisma.join([...sets, Prisma.sql`updated_at = ${new Date()}`], ', ')}
       WHERE client_id = ${clientId}
      RETURNING ${ACCOUNT_COLUMNS}`;
    if (!account) throw new Error(`client ${clientId} has no account to update`);
    return account;
  }

  async clientIds(tx: BillingSnapshot): Promise<number[]> {
    const accounts = await tx.account.findMany({ select: { clientId: true }, orderBy: { clientId: 'asc' } });
    return accounts.map((account) => account.clientId);
  }

  async find(tx: BillingSnapshot, clientId: number): Promise<Account | null> {
    return tx.account.findUnique({ where: { clientId } });
  }
}
