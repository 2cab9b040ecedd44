import type { Balances } from '../accounts/balance.js';
import type { ChargeState, CreditBucket, LedgerKind } from '../generated/prisma/enums.js';

export interface AuditedEntry {
  id: bigint;
  kind: LedgerKind;
  bucket: CreditBucket;
  amount: number;
  taskKey: string | null;
  balanceAfter: number;
}

export interface AuditedCharge {
  taskKey: string;
  bucket: CreditBucket;
  state: ChargeState;
}

export interface LedgerAuditInput {
  clientId: number;
  /** The account's buckets; null when the client has no account. */
  balances: Balances | null;
  entries: readonly AuditedEntry[];
  charges: readonly AuditedCharge[];
}

/** The terms of DESIGN §4's invariant, debits counted as credits taken. */
export interface LedgerTotals {
  opening: number;
  grants: number;
  refills: number;
  debits: number;
  refunds: number;
}

export interface LedgerAuditReport {
  clientId: number;
  ok: boolean;
  violations: string[];
  totals: LedgerTotals;
  balance: number | null;
}

/**
 * Checks one client's ledger against its account and charges (DESIGN §4): opening + grants +
 * refills − debits + refunds = balance, bucket by bucket; no bucket ever negative; at most one
 * debit and one refund per task, the refund into the debit's bucket; charges agree with the ledger.
 */
export function auditLedger(input: LedgerAuditInput): LedgerAuditReport {
  const violations: string[] = [];
  const totals: LedgerTotals = { opening: 0, grants: 0, refills: 0, debits: 0, refunds: 0 };
  const entries = [...input.entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const running: Record<CreditBucket, number> = { daily: 0, bonus: 0 };
  const debits = new Map<string, AuditedEntry>();
  const refunds = new Map<string, AuditedEntry>();

  entries.forEach((entry, index) => {
    const problem = entryProblem(entry, index);
    if (problem) violations.push(`entry ${entry.id}: ${problem}`);
    addToTotals(totals, entry);
    if (entry.taskKey && (entry.kind === 'debit' || entry.kind === 'refund')) {
      const seen = entry.kind === 'debit' ? debits : refunds;
      if (seen.has(entry.taskKey)) violations.push(`task ${entry.taskKey} has more than one ${entry.kind}`);
      seen.set(entry.taskKey, entry);
    }
    running[entry.bucket] += entry.amount;
    if (running[entry.bucket] < 0) violations.push(`entry ${entry.id}: the ${entry.bucket} bucket went negative (${running[entry.bucket]})`);
    if (entry.balanceAfter !== running.daily + running.bonus) {
      violations.push(`entry ${entry.id}: balance_after ${entry.balanceAfter}, the ledger sums to ${running.daily + running.bonus}`);
    }
  });

  for (const [taskKey, refund] of refunds) {
    const debit = debits.get(taskKey);
    if (!debit) violations.push(`task ${taskKey} was refunded without a debit`);
    else if (debit.bucket !== refund.bucket) violations.push(`task ${taskKey} was debited from ${debit.bucket} but refunded to ${refund.bucket}`);
  }
  violations.push(...chargeProblems(input.charges, debits, refunds));

  const balance = input.balances ? input.balances.dailyRemaining + input.balances.bonusRemaining : null;
  if (input.balances) {
    violations.push(...balanceProblems(input.balances, running, totals));
  } else if (entries.length > 0 || input.charges.length > 0) {
    violations.push('ledger entries or charges exist without an account');
  }
  return { clientId: input.clientId, ok: violations.length === 0, violations, totals, balance };
}

function entryProblem(entry: AuditedEntry, index: number): string | null {
  if ((index === 0) !== (entry.kind === 'opening')) return 'the opening must be the first entry and the only one';
  switch (entry.kind) {
    case 'opening':
      return entry.amount >= 0 ? null : `an opening of ${entry.amount}`;
    case 'grant':
      return entry.amount > 0 && entry.bucket === 'bonus' ? null : `a grant of ${entry.amount} into ${entry.bucket}`;
    case 'refill':
      return entry.bucket === 'daily' ? null : 'a refill outside the daily bucket';
    case 'debit':
      return entry.amount === -1 && entry.taskKey ? null : `a debit of ${entry.amount} for task ${entry.taskKey}`;
    case 'refund':
      return entry.amount === 1 && entry.taskKey ? null : `a refund of ${entry.amount} for task ${entry.taskKey}`;
  }
}

function addToTotals(totals: LedgerTotals, entry: AuditedEntry): void {
  if (entry.kind === 'opening') totals.opening += entry.amount;
  else if (entry.kind === 'grant') totals.grants += entry.amount;
  else if (entry.kind === 'refill') totals.refills += entry.amount;
  else if (entry.kind === 'debit') totals.debits -= entry.amount;
  else totals.refunds += entry.amount;
}

function chargeProblems(
  charges: readonly AuditedCharge[],
  debits: ReadonlyMap<string, AuditedEntry>,
  refunds: ReadonlyMap<string, AuditedEntry>,
): string[] {
  const problems: string[] = [];
  const charged = new Set<string>();
  for (const charge of charges) {
    charged.add(charge.taskKey);
    const debit = debits.get(charge.taskKey);
    if (!debit) problems.push(`task ${charge.taskKey} has a charge but no debit`);
    else if (debit.bucket !== charge.bucket) problems.push(`task ${charge.taskKey} is charged to ${charge.bucket} but debited from ${debit.bucket}`);
    if ((charge.state === 'refunded') !== refunds.has(charge.taskKey)) {
      problems.push(`task ${charge.taskKey} is ${charge.state} but ${refunds.has(charge.taskKey) ? 'has' : 'has no'} refund entry`);
    }
  }
  for (const taskKey of debits.keys()) {
    if (!charged.has(taskKey)) problems.push(`task ${taskKey} has a debit but no charge`);
  }
  return problems;
}

function balanceProblems(balances: Balances, running: Record<CreditBucket, number>, totals: LedgerTotals): string[] {
  const problems: string[] = [];
  const balance = balances.dailyRemaining + balances.bonusRemaining;
  const derived = totals.opening + totals.grants + totals.refills - totals.debits + totals.refunds;
  if (derived !== balance) {
    problems.push(
      `opening ${totals.opening} + grants ${totals.grants} + refills ${totals.refills} − debits ${totals.debits} + refunds ${totals.refunds} = ${derived}, but the balance is ${balance}`,
    );
  }
  if (running.daily !== balances.dailyRemaining) problems.push(`the daily bucket is ${balances.dailyRemaining}, its entries sum to ${running.daily}`);
  if (running.bonus !== balances.bonusRemaining) problems.push(`the bonus bucket is ${balances.bonusRemaining}, its entries sum to ${running.bonus}`);
  if (balances.dailyRemaining < 0 || balances.bonusRemaining < 0) problems.push(`a bucket is negative (daily ${balances.dailyRemaining}, bonus ${balances.bonusRemaining})`);
  return problems;
}
