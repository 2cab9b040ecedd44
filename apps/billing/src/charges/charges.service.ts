import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, type DebitCommand, type DebitResult, type RefundCommand, type RefundResult } from '@smsq/contracts';
import { AccountTransactions } from '../accounts/account-transactions.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { balanceOf, withBucketChange } from '../accounts/balance.js';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from '../database/billing-database.js';
import type { Account, TaskCharge } from '../generated/prisma/client.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { bucketToDebit, isPastDeadline, outOfCreditsError } from './charge-rules.js';
import { DebitTooLateError } from './credit-errors.js';
import { TaskChargesRepository } from './task-charges.repository.js';

/** One credit per task: debited at most once, refunded at most once, per task key. */
@Injectable()
export class ChargesService {
  private readonly logger = new Logger(ChargesService.name);

  constructor(
    private readonly database: BillingDatabase,
    private readonly transactions: AccountTransactions,
    private readonly accounts: AccountsRepository,
    private readonly charges: TaskChargesRepository,
    private readonly ledger: LedgerRepository,
    private readonly config: BillingConfig,
  ) {}

  /** A repeat for a task key already charged (redelivery, retry) charges nothing and answers the balance now. */
  debit(command: DebitCommand): Promise<DebitResult> {
    return this.transactions.run(command.clientId, async ({ tx, account, now }) => {
      const bucket = bucketToDebit(account);
      // The usual case first: the write itself tells a repeat (the key is charged already) by writing nothing.
      if (bucket && !isPastDeadline(command.deadline, now)) {
        const after = withBucketChange(account, bucket, -1);
        const debit = { taskKey: command.taskKey, clientId: account.clientId, bucket, after, debitedAt: now };
        if (await this.charges.recordDebit(tx, debit)) return { taskKey: command.taskKey, creditsRemaining: balanceOf(after), bucket };
      }
      // A repeat is answered before any refusal: a retry of a debit that was taken is never refused.
      const existing = await this.charges.find(tx, command.taskKey);
      if (existing) return this.repeatedDebit(existing, command, account);
      if (isPastDeadline(command.deadline, now)) throw new DebitTooLateError(command.deadline);
      if (!bucket) throw outOfCreditsError(this.config.profile);
      throw new Error(`the debit of task ${command.taskKey} wrote nothing, yet the key has no charge`);
    });
  }

  /**
   * Gives the credit back to the bucket it came from; a daily credit refunded after a refill
   * lands in the current daily bucket. A task with no charge, or refunded already, gets nothing.
   */
  async refund(command: RefundCommand): Promise<RefundResult> {
    const charge = await this.charges.find(this.database, command.taskKey);
    if (!charge) return { taskKey: command.taskKey, refunded: false, creditsRemaining: null };

    return this.transactions.run(charge.clientId, async ({ tx, account, now }) => {
      // Read again under the account's lock: a concurrent refund of the same task may have just committed.
      const current = await this.charges.find(tx, command.taskKey);
      if (!current || current.state === 'refunded') {
        return { taskKey: command.taskKey, refunded: false, creditsRemaining: balanceOf(account) };
      }
      const updated = await this.accounts.update(tx, account.clientId, withBucketChange(account, current.bucket, 1));
      await this.charges.markRefunded(tx, command.taskKey, now);
      await this.ledger.append(tx, {
        clientId: account.clientId,
        kind: 'refund',
        bucket: current.bucket,
        amount: 1,
        taskKey: command.taskKey,
        reason: command.reason,
        balanceAfter: balanceOf(updated),
      });
      this.logger.log(`refunded task ${command.taskKey} of client ${account.clientId} (${command.reason})`);
      return { taskKey: command.taskKey, refunded: true, creditsRemaining: balanceOf(updated) };
    });
  }

  /** The task of a held charge exists, so the charge stays; false when it was settled otherwise meanwhile. */
  keep(taskKey: string): Promise<boolean> {
    return this.charges.markKept(this.database, taskKey, new Date());
  }

  private repeatedDebit(existing: TaskCharge, command: DebitCommand, account: Account): DebitResult {
    if (existing.clientId !== command.clientId) {
      throw new ConflictError(`task key ${command.taskKey} was charged to another client`);
    }
    return { taskKey: command.taskKey, creditsRemaining: balanceOf(account), bucket: existing.bucket };
  }
}
