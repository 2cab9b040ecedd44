import { Injectable, Logger } from '@nestjs/common';
import type { AccountOpenCommand, AccountShowQuery, AccountsShowQuery, AccountView, CreditsGrantCommand, PlanSetCommand, PlanView } from '@smsq/contracts';
import { BillingConfig } from '../config/billing-config.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { changePlan, planTerms } from './account-rules.js';
import { AccountTransactions } from './account-transactions.js';
import { accountViewOf, planViewOf } from './account-view.js';
import { AccountsRepository } from './accounts.repository.js';
import { balanceOf } from './balance.js';

@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    private readonly transactions: AccountTransactions,
    private readonly accounts: AccountsRepository,
    private readonly ledger: LedgerRepository,
    private readonly config: BillingConfig,
  ) {}

  /** Idempotent: the plan counts only when this creates the account; an existing one is answered as it is. */
  open(command: AccountOpenCommand): Promise<AccountView> {
    return this.transactions.run(command.clientId, async ({ account }) => accountViewOf(account, this.config), {
      termsIfNew: planTerms(command.plan ?? 'free'),
    });
  }

  show(query: AccountShowQuery): Promise<AccountView> {
    return this.transactions.run(query.clientId, async ({ account }) => accountViewOf(account, this.config));
  }

  /** Several accounts as `show` gives each (opened or refilled as due), in the order asked. */
  showMany(query: AccountsShowQuery): Promise<AccountView[]> {
    if (query.clientIds.length === 0) return Promise.resolve([]);
    return this.transactions.runMany(query.clientIds, async ({ accounts }) => query.clientIds.map((clientId) => accountViewOf(accounts.get(clientId)!, this.config)));
  }

  /** Bonus credits: they persist across daily periods and are spent after the daily bucket. */
  grant(command: CreditsGrantCommand): Promise<AccountView> {
    return this.transactions.run(command.clientId, async ({ tx, account }) => {
      const updated = await this.accounts.update(tx, account.clientId, { bonusRemaining: account.bonusRemaining + command.amount });
      await this.ledger.append(tx, {
        clientId: account.clientId,
        kind: 'grant',
        bucket: 'bonus',
        amount: command.amount,
        balanceAfter: balanceOf(updated),
      });
      this.logger.log(`granted ${command.amount} bonus credits to client ${account.clientId}`);
      return accountViewOf(updated, this.config);
    });
  }

  /**
   * The phone limit applies at once; the daily allowance is what the next period starts with,
   * so the current daily bucket is left as it is (and a period already over is not rolled here).
   */
  async setPlan(command: PlanSetCommand): Promise<PlanView> {
    return this.transactions.run(
      command.clientId,
      async ({ tx, account }) => {
        const updated = await this.accounts.update(tx, account.clientId, changePlan(account, command));
        this.logger.log(`client ${account.clientId} is now on plan ${updated.plan} (${updated.dailyAllowance}/day, ${updated.phoneLimit} phones)`);
        return planViewOf(updated);
      },
      // A client that had no account yet starts on the new terms: there is no earlier plan to finish first.
      { termsIfNew: changePlan(planTerms(command.plan), command), refill: false },
    );
  }
}
