import { describe, expect, it } from 'vitest';
import { bucketToDebit, isPastDeadline, outOfCreditsError } from './charge-rules.js';
import { DailyLimitReachedError, InsufficientCreditsError } from './credit-errors.js';

describe(bucketToDebit.name, () => {
  it('takes from the daily bucket first', () => {
    expect(bucketToDebit({ dailyRemaining: 1, bonusRemaining: 5 })).toBe('daily');
  });

  it('takes from bonus once the daily bucket is empty', () => {
    expect(bucketToDebit({ dailyRemaining: 0, bonusRemaining: 5 })).toBe('bonus');
  });

  it('finds nothing when both are empty', () => {
    expect(bucketToDebit({ dailyRemaining: 0, bonusRemaining: 0 })).toBeNull();
  });
});

describe(outOfCreditsError.name, () => {
  it('is daily_limit_reached (402) in Profile A', () => {
    const sut = outOfCreditsError('A');

    expect(sut).toBeInstanceOf(DailyLimitReachedError);
    expect(sut.toBody().error).toBe('daily_limit_reached');
    expect(sut.status).toBe(402);
  });

  it('is insufficient_credits (402) in Profile B', () => {
    const sut = outOfCreditsError('B');

    expect(sut).toBeInstanceOf(InsufficientCreditsError);
    expect(sut.toBody().error).toBe('insufficient_credits');
    expect(sut.status).toBe(402);
  });
});

describe(isPastDeadline.name, () => {
  const now = new Date('2026-03-01T10:00:00.000Z');

  it('is past once the deadline has come', () => {
    expect(isPastDeadline('2026-03-01T09:59:59.999Z', now)).toBe(true);
    expect(isPastDeadline('2026-03-01T10:00:00.000Z', now)).toBe(true);
  });

  it('is not past before it', () => {
    expect(isPastDeadline('2026-03-01T10:00:00.001Z', now)).toBe(false);
  });

  it('compares instants, whatever the offset they are written in', () => {
    expect(isPastDeadline('2026-03-01T12:00:00+02:00', now)).toBe(true);
    expect(isPastDeadline('2026-03-01T12:00:01+02:00', now)).toBe(false);
  });
});
