import { Injectable, Logger } from '@nestjs/common';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase, type BillingTransaction } from '../database/billing-database.js';
import type { Account } from '../generated/prisma/client.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { dueRefill, openAccount, planTerms, type PlanTerms } from './account-rules.js';
import { AccountsRepository } from './accounts.repository.js';
import { balanceOf } from './balance.js';

export interface LockedAccount {
  tx: BillingTransaction;
  /** The account as it is now, its row locked until the transaction ends. */
  account: Account;
  now: Date;
}

export interface LockedAccounts {
  tx: BillingTransaction;
  /** Every account asked for, as it is now, each row locked until the transaction ends. */
  accounts: ReadonlyMap<number, Account>;
  now: Date;
}

export interface AccountTransactionOptions {
  /** The plan terms of the account if this opens it (free by default); an existing account keeps its own. */
  termsIfNew?: PlanTerms;
  /** Whether a due refill starts the new period first (every balance read or change does). */
  refill?: boolean;
}

/**
 * Every change to an account runs here, serialised by the account's row lock, so concurrent
 * debits never overspend. A client without an account gets one, so that a lost `account.open`
 * never blocks it.
 */
@Injectable()
export class AccountTransactions {
  private readonly logger = new Logger(AccountTransactions.name);

  constructor(
    private readonly database: BillingDatabase,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly config: BillingConfig,
  ) {}

  run<T>(clientId: number, work: (locked: LockedAccount) => Promise<T>, options: AccountTransactionOptions = {}): Promise<T> {
    return this.database.transaction(async (tx) => {
      const locked = (await this.accounts.lock(tx, clientId)) ?? (await this.open(tx, clientId, options.termsIfNew ?? planTerms('free')));
      // Taken after the lock was granted, so waiting behind other debits never makes a moment go backwards.
      const now = new Date();
      const account = options.refill === false ? locked : await this.refillIfDue(tx, locked, now);
      return work({ tx, account, now });
    });
  }

  /**
   * `run` for several accounts at once (a batch of debits): their rows are locked in the order of
   * their ids, the order every transaction that locks more than one account follows, and opened
   * or refilled as `run` would.
   */
  runMany<T>(clientIds: readonly number[], work: (locked: LockedAccounts) => Promise<T>): Promise<T> {
    return this.runManyReading(clientIds, async () => undefined, (locked) => work(locked));
  }

  /**
   * `runMany` with what the work reads under the accounts' locks (`readUnderLocks`), sent right
   * behind the lock: one round trip for both, the read running once the rows are locked. Read
   * again if an account had to be opened, whose row was not there to lock when it first ran.
   */
  runManyReading<T, R>(clientIds: readonly number[], readUnderLocks: (tx: BillingTransaction) => Promise<R>, work: (locked: LockedAccounts, read: R) => Promise<T>): Promise<T> {
    const ids = [...new Set(clientIds)].sort((a, b) => a - b);
    return this.database.transaction(async (tx) => {
      const [lockedRows, firstRead] = await Promise.all([this.accounts.lockMany(tx, ids), readUnderLocks(tx)]);
      const found = new Map(lockedRows.map((account) => [account.clientId, account]));
      let opened = false;
      for (const clientId of ids) {
        if (found.has(clientId)) continue;
        found.set(clientId, await this.open(tx, clientId, planTerms('free')));
        opened = true;
      }
      const now = new Date();
      const accounts = new Map<number, Account>();
      for (const [clientId, account] of found) accounts.set(clientId, await this.refillIfDue(tx, account, now));
      return work({ tx, accounts, now }, opened ? await readUnderLocks(tx) : firstRead);
    });
  }

  private async open(tx: BillingTransaction, clientId: number, terms: PlanTerms): Promise<Account> {
    const { account, opening } = openAccount(clientId, terms, this.config.profile, new Date());
    // A concurrent first use of the same client waits here for the other insert and then creates nothing.
    if (await this.accounts.createIfMissing(tx, account)) {
      await this.ledger.append(tx, { clientId, kind: 'opening', ...opening, balanceAfter: balanceOf(account) });
      this.logger.log(`opened the account of client ${clientId} on plan ${terms.plan}`);
    }
    const locked = await this.accounts.lock(tx, clientId);
    if (!locked) throw new Error(`the account of client ${clientId} vanished right after it was opened`);
    return locked;
  }

  private async refillIfDue(tx: BillingTransaction, account: Account, now: Date): Promise<Account> {
    const refill = dueRefill(account, now, this.config);
    if (!refill) return account;
    const updated = await this.accounts.update(tx, account.clientId, {
      dailyRemaining: refill.dailyRemaining,
      periodStartedAt: refill.periodStartedAt,
    });
    if (refill.amount !== 0) {
      await this.ledger.append(tx, {
        clientId: account.clientId,
        kind: 'refill',
        bucket: 'daily',
        amount: refill.amount,
        balanceAfter: balanceOf(updated),
      });
    }
    return updated;
  }
}
