import { describe, expect, it } from 'vitest';
import { isPlanName, PLANS, PROFILE_B_STARTING_CREDITS } from './plans.js';

describe('plans', () => {
  it("are the specification's table", () => {
    expect(Object.entries(PLANS).map(([name, plan]) => [name, plan.dailyCredits, plan.phoneLimit])).toEqual([
      ['free', 30, 2],
      ['starter', 1_000, 2],
      ['basic', 2_500, 3],
      ['standard', 5_000, 5],
      ['pro', 10_000, 10],
      ['business', 30_000, 20],
      ['enterprise', 50_000, 50],
    ]);
    expect(PROFILE_B_STARTING_CREDITS).toBe(10);
  });

  it('recognise only their own names', () => {
    expect(isPlanName('pro')).toBe(true);
    expect(isPlanName('toString')).toBe(false);
    expect(isPlanName('Pro')).toBe(false);
  });
});
