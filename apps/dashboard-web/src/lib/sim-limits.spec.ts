import { describe, expect, it } from 'vitest';
import { limitsText, parseLimitsInput } from './sim-limits';

describe('parseLimitsInput', () => {
  it('reads whole numbers, and empty as no limit', () => {
    expect(parseLimitsInput('500', ' 10 ')).toEqual({ ok: true, limits: { dailyLimit: 500, perMinute: 10 } });
    expect(parseLimitsInput('', '')).toEqual({ ok: true, limits: { dailyLimit: null, perMinute: null } });
    expect(parseLimitsInput('0', '100000')).toEqual({ ok: true, limits: { dailyLimit: 0, perMinute: 100_000 } });
  });

  it.each([
    ['-1', '', 'The daily limit must be a whole number from 0 to 100,000'],
    ['2.5', '', 'The daily limit must be a whole number'],
    ['100001', '', 'The daily limit must be a whole number from 0 to 100,000'],
    ['lots', '', 'The daily limit must be a whole number'],
    ['', '0', 'The per-minute pace must be a whole number from 1 to 100,000'],
    ['', '1e3', 'The per-minute pace must be a whole number'],
  ])('refuses %j / %j with a clear message', (daily, perMinute, message) => {
    const parsed = parseLimitsInput(daily, perMinute);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });
});

describe('limitsText', () => {
  it('says what is set', () => {
    expect(limitsText({ dailyLimit: 1500, perMinute: null })).toBe('1,500 a day');
    expect(limitsText({ dailyLimit: 0, perMinute: 10 })).toBe('0 a day · 10 a minute');
    expect(limitsText({ dailyLimit: null, perMinute: null })).toBe('No limits');
  });
});
