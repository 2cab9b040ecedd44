import { InvalidRequestError, PROFILE_B_STARTING_CREDITS } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { changePlan, dueRefill, openAccount, planOf, planTerms } from './account-rules.js';

const now = new Date('2026-03-01T10:00:00.000Z');
const day = 86_400;

describe(openAccount.name, () => {
  it('opens a Profile A account with a full daily bucket of its plan and no bonus', () => {
    const sut = openAccount(7, planTerms('free'), 'A', now);

    expect(sut.account).toEqual({
      clientId: 7,
      plan: 'free',
      dailyAllowance: 30,
      phoneLimit: 2,
      dailyRemaining: 30,
      bonusRemaining: 0,
      periodStartedAt: now,
    });
    expect(sut.opening).toEqual({ bucket: 'daily', amount: 30 });
  });

  it('takes the allowance and phone limit of the plan asked for', () => {
    const sut = openAccount(7, planTerms('basic'), 'A', now);

    expect(sut.account).toMatchObject({ dailyAllowance: 2_500, phoneLimit: 3, dailyRemaining: 2_500 });
    expect(sut.opening.amount).toBe(2_500);
  });

  it('opens with custom terms as they are', () => {
    const sut = openAccount(7, { plan: 'enterprise', dailyAllowance: 70_000, phoneLimit: 80 }, 'A', now);

    expect(sut.account).toMatchObject({ plan: 'enterprise', dailyAllowance: 70_000, phoneLimit: 80, dailyRemaining: 70_000 });
    expect(sut.opening.amount).toBe(70_000);
  });

  it('opens a Profile B account with persistent starting credits and no daily bucket', () => {
    const sut = openAccount(7, planTerms('free'), 'B', now);

    expect(sut.account).toMatchObject({ dailyRemaining: 0, bonusRemaining: PROFILE_B_STARTING_CREDITS, phoneLimit: 2 });
    expect(sut.opening).toEqual({ bucket: 'bonus', amount: 10 });
  });
});

describe(dueRefill.name, () => {
  const rulesA = { profile: 'A' as const, dailyPeriodS: day };
  const account = { dailyAllowance: 30, dailyRemaining: 12, periodStartedAt: now };
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1_000);

  it('is not due while the period runs', () => {
    expect(dueRefill(account, at(day - 0.001), rulesA)).toBeNull();
  });

  it('starts the next period at the moment of use, back to the allowance, recording what it adds', () => {
    const later = at(day * 3 + 17);

    expect(dueRefill(account, later, rulesA)).toEqual({ dailyRemaining: 30, periodStartedAt: later, amount: 18 });
  });

  it('does not stack: an untouched bucket refills by zero', () => {
    expect(dueRefill({ ...account, dailyRemaining: 30 }, at(day), rulesA)).toMatchObject({ dailyRemaining: 30, amount: 0 });
  });

  it('records a negative refill when more than the allowance was left', () => {
    expect(dueRefill({ ...account, dailyAllowance: 30, dailyRemaining: 2_500 }, at(day), rulesA)).toMatchObject({
      dailyRemaining: 30,
      amount: -2_470,
    });
  });

  it('uses the allowance in force when the period ends, so a plan change counts from the next period', () => {
    expect(dueRefill({ ...account, dailyAllowance: 1_000 }, at(day), rulesA)).toMatchObject({ dailyRemaining: 1_000, amount: 988 });
  });

  it('never refills in Profile B', () => {
    expect(dueRefill(account, at(day * 30), { profile: 'B', dailyPeriodS: day })).toBeNull();
  });
});

describe(changePlan.name, () => {
  const free = { plan: 'free', dailyAllowance: 30, phoneLimit: 2 };

  it('takes the numbers of a standard plan', () => {
    expect(changePlan(free, { plan: 'pro' })).toEqual({ plan: 'pro', dailyAllowance: 10_000, phoneLimit: 10 });
  });

  it.each([{ daily: 100 }, { phones: 4 }])('refuses custom numbers %o outside enterprise', (custom) => {
    expect(() => changePlan(free, { plan: 'business', ...custom })).toThrow(InvalidRequestError);
  });

  it('gives enterprise 50,000 credits and 50 phones unless set', () => {
    expect(changePlan(free, { plan: 'enterprise' })).toEqual({ plan: 'enterprise', dailyAllowance: 50_000, phoneLimit: 50 });
    expect(changePlan(free, { plan: 'enterprise', daily: 80_000, phones: 70 })).toEqual({
      plan: 'enterprise',
      dailyAllowance: 80_000,
      phoneLimit: 70,
    });
  });

  it('keeps the custom numbers of an enterprise account that the change leaves out', () => {
    const enterprise = { plan: 'enterprise', dailyAllowance: 80_000, phoneLimit: 70 };

    expect(changePlan(enterprise, { plan: 'enterprise', phones: 90 })).toEqual({ plan: 'enterprise', dailyAllowance: 80_000, phoneLimit: 90 });
  });

  it('drops custom numbers when an enterprise account moves to another plan', () => {
    const enterprise = { plan: 'enterprise', dailyAllowance: 80_000, phoneLimit: 70 };

    expect(changePlan(enterprise, { plan: 'basic' })).toEqual({ plan: 'basic', dailyAllowance: 2_500, phoneLimit: 3 });
  });
});

describe(planOf.name, () => {
  it('refuses a stored plan that is not one of the plans', () => {
    expect(() => planOf({ clientId: 3, plan: 'platinum' })).toThrow(/unknown plan/);
  });
});
