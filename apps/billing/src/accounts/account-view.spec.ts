import { describe, expect, it } from 'vitest';
import { accountViewOf } from './account-view.js';

const account = {
  clientId: 4,
  plan: 'starter',
  dailyAllowance: 1_000,
  phoneLimit: 2,
  dailyRemaining: 400,
  bonusRemaining: 25,
  periodStartedAt: new Date('2026-03-01T10:00:00.000Z'),
};

describe(accountViewOf.name, () => {
  it('reports daily plus bonus as the credits remaining and when the period ends (Profile A)', () => {
    const sut = accountViewOf(account, { profile: 'A', dailyPeriodS: 3_600 });

    expect(sut).toEqual({
      clientId: 4,
      plan: 'starter',
      dailyAllowance: 1_000,
      phoneLimit: 2,
      dailyRemaining: 400,
      bonusRemaining: 25,
      creditsRemaining: 425,
      periodEndsAt: '2026-03-01T11:00:00.000Z',
    });
  });

  it('has no period end in Profile B', () => {
    expect(accountViewOf(account, { profile: 'B', dailyPeriodS: 3_600 }).periodEndsAt).toBeNull();
  });
});
