import type { CreditBucket } from '../generated/prisma/enums.js';

export interface Balances {
  dailyRemaining: number;
  bonusRemaining: number;
}

/** What the client can still spend: the daily bucket plus the bonus bucket. */
export function balanceOf(balances: Balances): number {
  return balances.dailyRemaining + balances.bonusRemaining;
}

/** The buckets after adding `delta` (negative to take) to one of them. */
export function withBucketChange(balances: Balances, bucket: CreditBucket, delta: number): Balances {
  return bucket === 'daily'
    ? { dailyRemaining: balances.dailyRemaining + delta, bonusRemaining: balances.bonusRemaining }
    : { dailyRemaining: balances.dailyRemaining, bonusRemaining: balances.bonusRemaining + delta };
}
