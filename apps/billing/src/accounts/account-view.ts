import type { AccountView, PlanView } from '@smsq/contracts';
import { periodEndOf, planOf, type AccountState } from './account-rules.js';
import { balanceOf } from './balance.js';
import type { CreditRules } from './credit-rules.js';

export function accountViewOf(account: AccountState, rules: CreditRules): AccountView {
  return {
    clientId: account.clientId,
    plan: planOf(account),
    dailyAllowance: account.dailyAllowance,
    phoneLimit: account.phoneLimit,
    dailyRemaining: account.dailyRemaining,
    bonusRemaining: account.bonusRemaining,
    creditsRemaining: balanceOf(account),
    periodEndsAt: rules.profile === 'A' ? periodEndOf(account, rules.dailyPeriodS).toISOString() : null,
  };
}

export function planViewOf(account: AccountState): PlanView {
  return { clientId: account.clientId, plan: planOf(account), dailyAllowance: account.dailyAllowance, phoneLimit: account.phoneLimit };
}
