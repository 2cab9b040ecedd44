import { Injectable } from '@nestjs/common';
import type { BillingTransaction } from '../database/billing-database.js';
import { Prisma, type Account } from '../generated/prisma/client.js';
import type { AccountState } from './account-rules.js';

const ACCOUNT_COLUMNS = Prisma.sql`client_id AS "clientId", plan, daily_allowance AS "dailyAllowance", phone_limit AS "phoneLimit",
  daily_remaining AS "dailyRemaining", bonus_remaining AS "bonusRemaining",
  period_started_at AS "periodStartedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

@Injectable()
export class AccountsRepository {
  /** Inserts the account unless the client has one; true when this call created it. */
  async createIfMissing(tx: BillingTransaction, account: AccountState): Promise<boolean> {
    const { count } = await tx.account.createMany({ data: [account], skipDuplicates: true });
    return count === 1;
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

  async update(tx: BillingTransaction, clientId: number, changes: Partial<Omit<AccountState, 'clientId'>>): Promise<Account> {
    return tx.account.update({ where: { clientId }, data: changes });
  }

  async clientIds(tx: BillingTransaction): Promise<number[]> {
    const accounts = await tx.account.findMany({ select: { clientId: true }, orderBy: { clientId: 'asc' } });
    return accounts.map((account) => account.clientId);
  }

  async find(tx: BillingTransaction, clientId: number): Promise<Account | null> {
    return tx.account.findUnique({ where: { clientId } });
  }
}
