import { describe, expect, it } from 'vitest';
import { limitsDraftOf, limitsText, parseLimitsInput, partsTodayText, pauseText, recipientsThisMonthText, type LimitsDraft } from './sim-limits';

const EMPTY: LimitsDraft = { dailyLimit: '', perMinute: '', monthlyRecipients: '', jitter: '', sims: '1' };

describe('parseLimitsInput', () => {
  it('reads whole numbers, and empty as no limit', () => {
    expect(parseLimitsInput({ dailyLimit: '500', perMinute: ' 10 ', monthlyRecipients: '150', jitter: '20', sims: '2' })).toEqual({
      ok: true,
      limits: { dailyLimit: 500, perMinute: 10, monthlyRecipients: 150, jitter: 20, sims: 2 },
    });
    expect(parseLimitsInput(EMPTY)).toEqual({ ok: true, limits: { dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: null, sims: 1 } });
    expect(parseLimitsInput({ dailyLimit: '0', perMinute: '100000', monthlyRecipients: '0', jitter: '600', sims: '1' })).toEqual({
      ok: true,
      limits: { dailyLimit: 0, perMinute: 100_000, monthlyRecipients: 0, jitter: 600, sims: 1 },
    });
  });

  it.each([
    [{ dailyLimit: '-1' }, 'The daily limit must be a whole number from 0 to 100,000'],
    [{ dailyLimit: '2.5' }, 'The daily limit must be a whole number'],
    [{ dailyLimit: '100001' }, 'The daily limit must be a whole number from 0 to 100,000'],
    [{ dailyLimit: 'lots' }, 'The daily limit must be a whole number'],
    [{ perMinute: '0' }, 'The per-minute pace must be a whole number from 1 to 100,000'],
    [{ perMinute: '1e3' }, 'The per-minute pace must be a whole number'],
    [{ monthlyRecipients: '-5' }, 'The monthly recipients cap must be a whole number from 0 to 100,000, or empty for no cap'],
    [{ jitter: '601' }, 'The jitter must be a whole number of seconds from 0 to 600'],
    [{ sims: '3' }, 'SIMs must be 1 or 2'],
    [{ sims: '' }, 'SIMs must be 1 or 2'],
  ])('refuses %j with a clear message', (change, message) => {
    const parsed = parseLimitsInput({ ...EMPTY, ...change });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });

  it('names the first broken field, in the form’s order', () => {
    expect(parseLimitsInput({ ...EMPTY, perMinute: '0', jitter: '-1' })).toEqual({ ok: false, error: expect.stringContaining('per-minute') });
  });

  it('starts the form from what is set', () => {
    expect(limitsDraftOf({ dailyLimit: 500, perMinute: null, monthlyRecipients: 0, jitter: null, sims: 2 })).toEqual({ dailyLimit: '500', perMinute: '', monthlyRecipients: '0', jitter: '', sims: '2' });
  });
});

describe('limitsText', () => {
  it('says what is set, and that the limits count SMS parts', () => {
    expect(limitsText({ dailyLimit: 1500, perMinute: null })).toBe('1,500 a day (SMS parts)');
    expect(limitsText({ dailyLimit: 0, perMinute: 10 })).toBe('0 a day · 10 a minute (SMS parts)');
    expect(limitsText({ dailyLimit: 500, perMinute: null, monthlyRecipients: 150, jitter: 20, sims: 2 })).toBe('500 a day (SMS parts) · 150 recipients a month · up to 20 s jitter · 2 SIMs');
    expect(limitsText({ dailyLimit: null, perMinute: null, monthlyRecipients: null, jitter: 0, sims: 1 })).toBe('No limits');
  });
});

describe('what the limits count so far', () => {
  it('shows parts today against the daily limit, and recipients this month against the cap', () => {
    expect(partsTodayText({ partsToday: 120, dailyLimit: 500 })).toBe('120 / 500 parts');
    expect(partsTodayText({ partsToday: 1200, dailyLimit: null })).toBe('1,200 parts, no limit');
    expect(recipientsThisMonthText({ recipientsThisMonth: 45, monthlyRecipients: 150 })).toBe('45 / 150 recipients');
    expect(recipientsThisMonthText({ recipientsThisMonth: 1, monthlyRecipients: null })).toBe('1 recipient, no cap');
  });
});

describe('pauseText', () => {
  const now = new Date('2026-11-22T13:20:00.000Z');

  it('says until when, in the account’s zone, and why', () => {
    expect(pauseText({ pausedUntil: '2026-11-22T13:35:00.000Z', pauseReason: 'carrier_volume' }, 'Europe/Belgrade', now)).toBe('Paused until 14:35, the carrier refused for volume');
    expect(pauseText({ pausedUntil: '2026-11-22T13:35:00.000Z', pauseReason: null }, 'UTC', now)).toBe('Paused until 13:35');
  });

  it('adds the date when the pause ends on another day there', () => {
    expect(pauseText({ pausedUntil: '2026-11-22T15:30:00.000Z', pauseReason: 'carrier_volume' }, 'Asia/Tokyo', now)).toBe('Paused until 2026-11-23 00:30, the carrier refused for volume');
  });

  it('is nothing when not paused, or when the pause is over', () => {
    expect(pauseText({ pausedUntil: null, pauseReason: null }, 'UTC', now)).toBeNull();
    expect(pauseText({ pausedUntil: '2026-11-22T13:19:00.000Z', pauseReason: 'carrier_volume' }, 'UTC', now)).toBeNull();
  });
});
