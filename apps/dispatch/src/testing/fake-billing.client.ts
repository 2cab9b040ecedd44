import { DomainError, outcomeOf, UnavailableError, type DebitCommand, type DebitResult, type ItemOutcome, type RefundCommand, type RefundResult } from '@smsq/contracts';
import type { BillingClient } from '../billing/billing.client.js';
import type { PublicOf } from './stand-in.js';

/**
 * Billing as dispatch sees it: one debit per task key whatever the repeats, a 402 when the balance
 * is spent, and an `unavailable` that may or may not have taken the credit before its answer was lost.
 */
export class FakeBillingClient implements PublicOf<BillingClient> {
  readonly debitCalls: DebitCommand[] = [];
  readonly refundCalls: RefundCommand[] = [];
  /** `unavailable`: no answer; `lost-answer`: the credit is taken but no answer comes back. */
  mode: 'answering' | 'unavailable' | 'lost-answer' = 'answering';
  /** Runs while a debit is in flight, before it answers: a pause to let calls interleave, or a change of the world. */
  duringDebit: () => Promise<void> | void = () => undefined;
  /** How the next refunds go, one entry each, then `answering`: `unavailable` refunds nothing, `lost-answer` refunds without answering. */
  nextRefunds: Array<'unavailable' | 'lost-answer' | DomainError> = [];
  /** Runs while a refund is in flight, before it takes effect. */
  duringRefund: (command: RefundCommand) => Promise<void> | void = () => undefined;
  private readonly balances = new Map<number, number>();
  private readonly debits = new Map<string, { clientId: number; result: DebitResult }>();
  private readonly refunded = new Set<string>();

  constructor(private readonly startingCredits = 10) {}

  balance(clientId: number): number {
    return this.balances.get(clientId) ?? this.startingCredits;
  }

  setBalance(clientId: number, credits: number): void {
    this.balances.set(clientId, credits);
  }

  debitedKeys(): string[] {
    return [...this.debits.keys()];
  }

  refundedKeys(): string[] {
    return [...this.refunded];
  }

  async debit(command: DebitCommand): Promise<DebitResult> {
    this.debitCalls.push(command);
    await this.duringDebit();
    if (this.mode === 'unavailable') throw new UnavailableError('the billing service did not answer; retry later');
    const repeat = this.debits.get(command.taskKey);
    if (repeat) return { ...repeat.result, creditsRemaining: this.balance(command.clientId) };
    if (this.balance(command.clientId) < 1) throw new DomainError('insufficient_credits', 'not enough credits');
    this.balances.set(command.clientId, this.balance(command.clientId) - 1);
    const result: DebitResult = { taskKey: command.taskKey, creditsRemaining: this.balance(command.clientId), bucket: 'bonus' };
    this.debits.set(command.taskKey, { clientId: command.clientId, result });
    if (this.mode === 'lost-answer') throw new UnavailableError('the billing service did not answer; retry later');
    return result;
  }

  /** One message for the batch: when billing does not answer, no item gets an answer. */
  async debitMany(commands: DebitCommand[]): Promise<ItemOutcome<DebitResult>[]> {
    const outcomes = await Promise.all(commands.map((command) => outcomeOf(this.debit(command))));
    if (this.mode !== 'answering') throw new UnavailableError('the billing service did not answer; retry later');
    return outcomes;
  }

  /** The refund requests that reached billing for one task key, whatever became of them. */
  refundRequestsFor(taskKey: string): number {
    return this.refundCalls.filter((call) => call.taskKey === taskKey).length;
  }

  async refund(command: RefundCommand): Promise<RefundResult> {
    this.refundCalls.push(command);
    await this.duringRefund(command);
    const outcome = this.nextRefunds.shift();
    if (outcome === 'unavailable') throw new UnavailableError('the billing service did not answer; retry later');
    if (outcome instanceof DomainError) throw outcome;
    const result = this.applyRefund(command);
    if (outcome === 'lost-answer') throw new UnavailableError('the billing service did not answer; retry later');
    return result;
  }

  private applyRefund(command: RefundCommand): RefundResult {
    const debit = this.debits.get(command.taskKey);
    if (!debit || this.refunded.has(command.taskKey)) return { taskKey: command.taskKey, refunded: false, creditsRemaining: null };
    this.refunded.add(command.taskKey);
    this.balances.set(debit.clientId, this.balance(debit.clientId) + 1);
    return { taskKey: command.taskKey, refunded: true, creditsRemaining: this.balance(debit.clientId) };
  }
}
