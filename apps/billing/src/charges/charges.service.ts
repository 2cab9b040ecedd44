import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  outcomeOf,
  type DebitCommand,
  type DebitResult,
  type ItemOutcome,
  type RefundCommand,
  type RefundResult,
} from '@smsq/contracts';
import { sentWithCommit } from '@smsq/persistence';
import { AccountTransactions } from '../accounts/account-transactions.js';
import { AccountsRepository } from '../accounts/accounts.repository.js';
import { balanceOf, withBucketChange, type Balances } from '../accounts/balance.js';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from '../database/billing-database.js';
import type { TaskCharge } from '../generated/prisma/client.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { tasksRefunded } from '../metrics/refund-counter.js';
import { bucketToDebit, isPastDeadline, outOfCreditsError } from './charge-rules.js';
import { DebitTooLateError } from './credit-errors.js';
import { TaskChargesRepository, type NewDebit } from './task-charges.repository.js';

/** An item billing could not decide: whether it was charged is left to the settlement sweep, as for a lost answer. */
const UNANSWERED: ItemOutcome<DebitResult> = { ok: false, error: { error: 'unavailable', detail: 'the billing database did not answer; retry later' } };

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
   * Several debits (a batch of creates) in one transaction: the accounts are locked once and the
   * charges, ledger entries and balances written by one statement. Each item is answered as
   * `debit` would answer it, in order, so a client's later items see its earlier ones' balance.
   * If the batch cannot be written as one (a key charged meanwhile by another client, a deadlock
   * with the first debit of a client whose account this batch opens), nothing of it is, and each
   * item is debited on its own instead, until one fails for want of the database.
   */
  async debitMany(received: readonly DebitCommand[]): Promise<ItemOutcome<DebitResult>[]> {
    // One spelling per key, so that a key twice in the batch is seen as a repeat.
    const commands = received.map((command) => ({ ...command, taskKey: command.taskKey.toLowerCase() }));
    try {
      return await this.transactions.runManyReading(
        commands.map((command) => command.clientId),
        (tx) => this.charges.findMany(tx, commands.map((command) => command.taskKey)),
        async ({ tx, accounts, now }, charges) => {
          const charged = new Map<string, Pick<TaskCharge, 'clientId' | 'bucket'>>(charges.map((charge) => [charge.taskKey, charge]));
          const balances = new Map<number, Balances>(accounts);
          const debits: NewDebit[] = [];
          const answered: ItemOutcome<DebitResult>[] = [];
          for (const command of commands) {
            const decide = async (): Promise<DebitResult> => {
              const balance = balances.get(command.clientId)!;
              const existing = charged.get(command.taskKey);
              if (existing) return this.repeatedDebit(existing, command, balance);
              if (isPastDeadline(command.deadline, now)) throw new DebitTooLateError(command.deadline);
              const bucket = bucketToDebit(balance);
              if (!bucket) throw outOfCreditsError(this.config.profile);
              const after = withBucketChange(balance, bucket, -1);
              balances.set(command.clientId, after);
              charged.set(command.taskKey, { clientId: command.clientId, bucket });
              debits.push({ taskKey: command.taskKey, clientId: command.clientId, bucket, after, debitedAt: now });
              return { taskKey: command.taskKey, creditsRemaining: balanceOf(after), bucket };
            };
            answered.push(await outcomeOf(decide()));
          }
          // Its answer adds nothing: it goes out with the commit, whose failure it becomes (the batch is then taken one by one).
          if (debits.length > 0) sentWithCommit(this.charges.recordDebits(tx, debits, now));
          return answered;
        },
      );
    } catch (error) {
      this.logger.warn(`a batch of ${commands.length} debits is taken one by one: ${(error as Error).message}`);
      const outcomes: ItemOutcome<DebitResult>[] = [];
      let databaseGone = false;
      for (const command of commands) {
        const outcome: ItemOutcome<DebitResult> = databaseGone ? UNANSWERED : await outcomeOf(this.debit(command));
        databaseGone ||= !outcome.ok && outcome.error.error === 'internal_error';
        outcomes.push(databaseGone ? UNANSWERED : outcome);
      }
      return outcomes;
    }
  }

  /**
   * Gives the credit back to the bucket it came from; a daily credit refunded after a refill
   * lands in the current daily bucket. A task with no charge, or refunded already, gets nothing.
   */
  async refund(command: RefundCommand): Promise<RefundResult> {
    const charge = await this.charges.find(this.database.sql, command.taskKey);
    if (!charge) return { taskKey: command.taskKey, refunded: false, creditsRemaining: null };

    const result = await this.transactions.run(charge.clientId, async ({ tx, account, now }) => {
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
    if (result.refunded) tasksRefunded.inc({ reason: command.reason });
    return result;
  }

  /** The tasks of these held charges exist, so the charges stay; answers how many were still held. */
  keepMany(taskKeys: readonly string[]): Promise<number> {
    return taskKeys.length === 0 ? Promise.resolve(0) : this.charges.markKept(this.database.sql, taskKeys, new Date());
  }

  private repeatedDebit(existing: Pick<TaskCharge, 'clientId' | 'bucket'>, command: DebitCommand, account: Balances): DebitResult {
    if (existing.clientId !== command.clientId) {
      throw new ConflictError(`task key ${command.taskKey} was charged to another client`);
    }
    return { taskKey: command.taskKey, creditsRemaining: balanceOf(account), bucket: existing.bucket };
  }
}
