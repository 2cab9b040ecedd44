import type { DomainError, Profile } from '@smsq/contracts';
import type { Balances } from '../accounts/balance.js';
import type { CreditBucket } from '../generated/prisma/enums.js';
import { DailyLimitReachedError, InsufficientCreditsError } from './credit-errors.js';

/** The daily bucket first, then bonus; null when both are empty. */
export function bucketToDebit(balances: Balances): CreditBucket | null {
  if (balances.dailyRemaining > 0) return 'daily';
  if (balances.bonusRemaining > 0) return 'bonus';
  return null;
}

export function outOfCreditsError(profile: Profile): DomainError {
  return profile === 'A' ? new DailyLimitReachedError() : new InsufficientCreditsError();
}

export function isPastDeadline(deadline: string, now: Date): boolean {
  return Date.parse(deadline) <= now.getTime();
}
