import { DomainError, WEEKDAYS } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { formatSendWindowsText, parseSendWindowsText } from './send-windows-text.js';

const WEEKDAYS_ONLY = ['mon', 'tue', 'wed', 'thu', 'fri'];

function refusal(text: string): { code: string; detail: string } | undefined {
  try {
    parseSendWindowsText(text);
    return undefined;
  } catch (error) {
    return { code: (error as DomainError).code, detail: (error as DomainError).detail };
  }
}

describe(parseSendWindowsText.name, () => {
  it('reads windows separated by commas, each days and from-to', () => {
    expect(parseSendWindowsText('mon-fri 08:00-21:00, sat 10:00-14:00')).toEqual([
      { days: WEEKDAYS_ONLY, from: '08:00', to: '21:00' },
      { days: ['sat'], from: '10:00', to: '14:00' },
    ]);
  });

  it('reads none, or nothing, as no windows', () => {
    expect(parseSendWindowsText('none')).toEqual([]);
    expect(parseSendWindowsText(' NONE ')).toEqual([]);
    expect(parseSendWindowsText('')).toEqual([]);
  });

  it('reads days joined by +, a range that wraps round the week, and daily, in the week’s order', () => {
    expect(parseSendWindowsText('fri+mon+wed 09:00-12:00')[0]!.days).toEqual(['mon', 'wed', 'fri']);
    expect(parseSendWindowsText('fri-mon 09:00-12:00')[0]!.days).toEqual(['mon', 'fri', 'sat', 'sun']);
    expect(parseSendWindowsText('mon-wed+sat 09:00-12:00')[0]!.days).toEqual(['mon', 'tue', 'wed', 'sat']);
    expect(parseSendWindowsText('daily 07:00-22:00')[0]!.days).toEqual([...WEEKDAYS]);
    expect(parseSendWindowsText('mon-mon 09:00-12:00')[0]!.days).toEqual(['mon']);
  });

  it('takes any case, spaces, semicolons, an en dash, one-digit hours, 24:00, and a window past midnight', () => {
    expect(parseSendWindowsText(' Mon - Fri  8:00 – 21:00 ; SUN 22:00-06:00;sat 10:00-24:00')).toEqual([
      { days: WEEKDAYS_ONLY, from: '08:00', to: '21:00' },
      { days: ['sun'], from: '22:00', to: '06:00' },
      { days: ['sat'], from: '10:00', to: '24:00' },
    ]);
  });

  it('takes 28 windows and refuses 29', () => {
    expect(parseSendWindowsText(Array.from({ length: 28 }, () => 'mon 08:00-09:00').join(', '))).toHaveLength(28);
    expect(refusal(Array.from({ length: 29 }, () => 'mon 08:00-09:00').join(', '))?.detail).toBe('at most 28 send windows; got 29');
  });

  it.each([
    ['weekdays 08:00-21:00', '"weekdays" in "weekdays 08:00-21:00" is not a day or a range of days'],
    ['monday 08:00-21:00', '"monday" in "monday 08:00-21:00" is not a day'],
    ['mon-xyz 08:00-21:00', '"mon-xyz" in "mon-xyz 08:00-21:00" is not a day'],
    ['mon 8-21', '"mon 8-21" is not a send window; write windows like "mon-fri 08:00-21:00, sat 10:00-14:00"'],
    ['08:00-21:00', '"08:00-21:00" is not a send window'],
    ['mon 08:00', '"mon 08:00" is not a send window'],
    ['mon-fri 08:00-21:00,', '"" is not a send window'],
    ['mon 24:30-06:00', '"24:30" in "mon 24:30-06:00" is not a time of day: use HH:MM from 00:00 to 24:00'],
    ['mon 08:60-09:00', '"08:60" in "mon 08:60-09:00" is not a time of day'],
  ])('refuses %j with invalid_request saying what is wrong', (text, detail) => {
    expect(refusal(text)).toEqual({ code: 'invalid_request', detail: expect.stringContaining(detail) });
  });
});

describe(formatSendWindowsText.name, () => {
  it('writes windows as they are read, ranges for runs of days', () => {
    expect(formatSendWindowsText([])).toBe('none');
    expect(formatSendWindowsText([{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }, { days: ['sat'], from: '10:00', to: '14:00' }])).toBe('mon-fri 08:00-21:00, sat 10:00-14:00');
    expect(formatSendWindowsText([{ days: ['sun', 'mon', 'wed', 'thu', 'fri'], from: '22:00', to: '06:00' }])).toBe('mon+wed-fri+sun 22:00-06:00');
    expect(formatSendWindowsText([{ days: ['sat', 'sun'], from: '10:00', to: '24:00' }])).toBe('sat+sun 10:00-24:00');
    expect(formatSendWindowsText([{ days: [...WEEKDAYS], from: '07:00', to: '22:00' }])).toBe('daily 07:00-22:00');
  });

  it.each(['mon-fri 08:00-21:00, sat 10:00-14:00', 'mon+wed-fri+sun 22:00-06:00', 'daily 00:00-24:00', 'none', 'tue+thu 09:30-09:30'])('reads back what it writes: %s', (text) => {
    expect(formatSendWindowsText(parseSendWindowsText(text))).toBe(text);
  });
});
