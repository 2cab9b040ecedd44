import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { AccountTransactions } from '../accounts/account-transactions.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { AccountsService } from '../accounts/accounts.service.js';
import { LedgerAudit } from '../audit/ledger-audit.service.js';
import { ChargesService } from '../charges/charges.service.js';
import { TaskChargesRepository } from '../charges/task-charges.repository.js';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from '../database/billing-database.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { SettlementSweeper, type DispatchClient } from '../settlement/settlement-sweeper.js';

export const BILLING_MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
export const BILLING_SCHEMA_PATH = fileURLToPath(new URL('../../prisma/schema.prisma', import.meta.url));

export function testBillingConfig(overrides: Partial<BillingConfig> = {}): BillingConfig {
  return Object.assign(new BillingConfig(), {
    profile: 'A',
    namespace: 'billingtest',
    databaseUrl: 'postgresql://postgres@127.0.0.1:5432/unused',
    amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
    queueType: 'classic',
    redisUrl: 'redis://127.0.0.1:6379',
    logFormat: 'text',
    logLevel: 'info',
    rpcTimeoutMs: 2_000,
    port: 0,
    dailyPeriodS: 86_400,
    settleAfterS: 30,
    ...overrides,
  } satisfies Partial<BillingConfig>);
}

/** The billing services wired by hand for one configuration, over a shared database. */
export interface BillingServices {
  config: BillingConfig;
  accounts: AccountsService;
  charges: ChargesService;
  audit: LedgerAudit;
  sweeper(dispatch: DispatchClient): SettlementSweeper;
}

export function billingServices(database: BillingDatabase, config: BillingConfig): BillingServices {
  const accountsRepository = new AccountsRepository();
  const ledger = new LedgerRepository();
  const taskCharges = new TaskChargesRepository();
  const transactions = new AccountTransactions(database, accountsRepository, ledger, config);
  const charges = new ChargesService(database, transactions, accountsRepository, taskCharges, ledger, config);
  return {
    config,
    accounts: new AccountsService(transactions, accountsRepository, ledger, config),
    charges,
    audit: new LedgerAudit(database, accountsRepository, ledger, taskCharges),
    sweeper: (dispatch) => new SettlementSweeper(database, taskCharges, charges, dispatch, config),
  };
}

/** A migrated database of its own and a connected client, for one spec file. */
export async function openBillingTestDatabase(label: string): Promise<{ testDatabase: TestDatabase; database: BillingDatabase; close(): Promise<void> }> {
  Logger.overrideLogger(['warn', 'error', 'fatal']);
  const testDatabase = await createTestDatabase(label, [{ schema: 'billing', migrationsDir: BILLING_MIGRATIONS_DIR }]);
  const database = new BillingDatabase(testDatabase.url);
  await database.onModuleInit();
  return {
    testDatabase,
    database,
    close: async () => {
      await database.onModuleDestroy();
      await testDatabase.drop();
    },
  };
}

let lastClientId = 0;

/** Client ids unique within a spec file, so tests sharing a database never share an account. */
export function nextClientId(): number {
  lastClientId += 1;
  return lastClientId;
}

/** A debit deadline comfortably ahead, as the gateway would give one. */
export function deadlineAhead(seconds = 60): string {
  return new Date(Date.now() + seconds * 1_000).toISOString();
}

/** Moves the start of the client's current period back, as if that much time had passed. */
export async function backdatePeriod(database: BillingDatabase, clientId: number, seconds: number): Promise<void> {
  await database.$executeRaw`UPDATE "billing"."accounts" SET period_started_at = period_started_at - make_interval(secs => ${seconds}) WHERE client_id = ${clientId}`;
}
