import { InvalidRequestError, PLANS, PROFILE_B_STARTING_CREDITS, isPlanName, type PlanName, type Profile } from '@smsq/contracts';
import type { Account } from '../generated/prisma/client.js';
import type { CreditBucket } from '../generated/prisma/enums.js';
import type { CreditRules } from './credit-rules.js';

export type AccountState = Omit<Account, 'createdAt' | 'updatedAt'>;
export type PlanTerms = Pick<Account, 'plan' | 'dailyAllowance' | 'phoneLimit'>;

export interface AccountOpening {
  account: AccountState;
  /** The ledger's first entry: everything the account starts with. */
  opening: { bucket: CreditBucket; amount: number };
}

export function planTerms(plan: PlanName): PlanTerms {
  return { plan, dailyAllowance: PLANS[plan].dailyCredits, phoneLimit: PLANS[plan].phoneLimit };
}

/** Profile A starts with a full daily bucket; Profile B with persistent starting credits and no daily bucket. */
export function openAccount(clientId: number, terms: PlanTerms, profile: Profile, now: Date): AccountOpening {
  const account = { clientId, ...terms, periodStartedAt: now };
  if (profile === 'B') {
    return {
      account: { ...account, dailyRemaining: 0, bonusRemaining: PROFILE_B_STARTING_CREDITS },
      opening: { bucket: 'bonus', amount: PROFILE_B_STARTING_CREDITS },
    };
  }
  return {
    account: { ...account, dailyRemaining: terms.dailyAllowance, bonusRemaining: 0 },
    opening: { bucket: 'daily', amount: terms.dailyAllowance },
  };
}

export function periodEndOf(account: Pick<Account, 'periodStartedAt'>, dailyPeriodS: number): Date {
  return new Date(account.periodStartedAt.getTime() + dailyPeriodS * 1_000);
}

export interface Refill {
  dailyRemaining: number;
  periodStartedAt: Date;
  /** What the refill adds, as the ledger records it: zero or negative when more than the allowance was left. */
  amount: number;
}

/**
 * Profile A: once a period has ended, the next period starts now with the daily bucket set back
 * to the allowance in force (nothing stacks). Null while the period runs, and always in Profile B.
 */
export function dueRefill(
  account: Pick<Account, 'dailyAllowance' | 'dailyRemaining' | 'periodStartedAt'>,
  now: Date,
  rules: CreditRules,
): Refill | null {
  if (rules.profile === 'B') return null;
  if (now.getTime() < periodEndOf(account, rules.dailyPeriodS).getTime()) return null;
  return {
    dailyRemaining: account.dailyAllowance,
    periodStartedAt: now,
    amount: account.dailyAllowance - account.dailyRemaining,
  };
}

export interface PlanChangeRequest {
  plan: PlanName;
  daily?: number;
  phones?: number;
}

/**
 * The terms after a plan change. Only enterprise takes custom numbers; an enterprise account
 * keeps its custom numbers for what the change leaves out, any other account gets the plan's.
 */
export function changePlan(current: PlanTerms, request: PlanChangeRequest): PlanTerms {
  const custom = request.daily !== undefined || request.phones !== undefined;
  if (custom && request.plan !== 'enterprise') {
    throw new InvalidRequestError(`daily credits and phone limit can only be set for the enterprise plan, not ${request.plan}`);
  }
  const defaults = current.plan === 'enterprise' && request.plan === 'enterprise' ? current : planTerms(request.plan);
  return {
    plan: request.plan,
    dailyAllowance: request.daily ?? defaults.dailyAllowance,
    phoneLimit: request.phones ?? defaults.phoneLimit,
  };
}

export function planOf(account: Pick<Account, 'plan' | 'clientId'>): PlanName {
  if (!isPlanName(account.plan)) throw new Error(`account ${account.clientId} has unknown plan ${JSON.stringify(account.plan)}`);
  return account.plan;
}
