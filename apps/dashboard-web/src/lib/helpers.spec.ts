import type { InboxRow } from '@smsq/dashboard-api';
import { describe, expect, it } from 'vitest';
import { buildQuery, parsePage } from '../api/query';
import { fillDays, niceScale, sumDays } from './chart';
import { formatCredits, formatDateTime, formatDay, formatInZone, formatRelative, humanizeCode, truncate, wallClockIn } from './format';
import { groupByNumber } from './inbox';

describe('buildQuery', () => {
  it('leaves out empty values and encodes the rest', () => {
    expect(buildQuery({ status: 'failed', from: '', to: undefined, recipient: ' +381 60 ', page: 2, x: null })).toBe('?status=failed&recipient=%2B381+60&page=2');
  });
  it('is empty when nothing is set', () => {
    expect(buildQuery({ search: '', page: undefined })).toBe('');
  });
  it('keeps zero and false', () => {
    expect(buildQuery({ a: 0, b: false })).toBe('?a=0&b=false');
  });
  it('parses a page number, defaulting to 1', () => {
    expect(parsePage('3')).toBe(3);
    expect(parsePage(null)).toBe(1);
    expect(parsePage('0')).toBe(1);
    expect(parsePage('2.5')).toBe(1);
    expect(parsePage('abc')).toBe(1);
  });
});

describe('niceScale', () => {
  it('gives an axis for an all-zero chart', () => {
    expect(niceScale(0)).toEqual({ max: 4, step: 1, ticks: [0, 1, 2, 3, 4] });
  });
  it('rounds up to whole, nice steps', () => {
    expect(niceScale(3)).toEqual({ max: 3, step: 1, ticks: [0, 1, 2, 3] });
    expect(niceScale(7)).toEqual({ max: 8, step: 2, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(95)).toEqual({ max: 100, step: 50, ticks: [0, 50, 100] });
    expect(niceScale(1234).max).toBeGreaterThanOrEqual(1234);
    expect(niceScale(1234).step).toBe(500);
  });
  it('never goes below 1 per step', () => {
    expect(niceScale(1).step).toBe(1);
    expect(niceScale(1).max).toBe(1);
  });
});

describe('fillDays', () => {
  it('fills missing days with zeros and ends at the newest day', () => {
    const days = fillDays([{ day: '2025-03-01', sent: 2, failed: 1, pending: 0 }], 3);
    expect(days).toEqual([
      { day: '2025-02-27', sent: 0, failed: 0, pending: 0 },
      { day: '2025-02-28', sent: 0, failed: 0, pending: 0 },
      { day: '2025-03-01', sent: 2, failed: 1, pending: 0 },
    ]);
  });
  it('keeps a full 30-day series as it is', () => {
    const input = Array.from({ length: 30 }, (_, i) => ({ day: `2025-01-${String(i + 1).padStart(2, '0')}`, sent: i, failed: 0, pending: 1 }));
    expect(fillDays(input)).toEqual(input);
    expect(sumDays(input)).toEqual({ sent: 435, failed: 0, pending: 30, total: 465 });
  });
  it('gives 30 days even with no data', () => {
    expect(fillDays([], 30, '2025-01-30')).toHaveLength(30);
    expect(fillDays([], 30, '2025-01-30')[0].day).toBe('2025-01-01');
  });
});

describe('formatting', () => {
  it('formats credits with separators', () => {
    expect(formatCredits(50000)).toBe('50,000');
    expect(formatCredits(0)).toBe('0');
    expect(formatCredits(null)).toBe('–');
  });
  it('formats instants in a given zone', () => {
    expect(formatDateTime('2025-05-12T14:03:00Z', 'Never', { locale: 'en-GB', timeZone: 'UTC' })).toBe('12 May 2025, 14:03');
    expect(formatDateTime(null)).toBe('Never');
    expect(formatDateTime('not a date', '–')).toBe('–');
  });
  it('shows an instant in the client’s zone, labelled with it, whatever the browser’s zone', () => {
    expect(formatInZone('2026-11-23T11:04:05.000Z', 'Europe/Belgrade')).toBe('2026-11-23 12:04:05 (Europe/Belgrade)');
    expect(formatInZone('2026-07-01T10:00:00Z', 'Europe/Belgrade')).toBe('2026-07-01 12:00:00 (Europe/Belgrade)');
    expect(formatInZone('2026-11-23T00:30:00Z', 'America/New_York')).toBe('2026-11-22 19:30:00 (America/New_York)');
    expect(formatInZone('2026-11-23T23:59:59Z', 'Asia/Tokyo')).toBe('2026-11-24 08:59:59 (Asia/Tokyo)');
    expect(formatInZone(null, 'Europe/Belgrade')).toBe('–');
    expect(formatInZone('not a date', 'Europe/Belgrade', 'Never')).toBe('Never');
    expect(wallClockIn('2026-11-23T11:04:05Z', 'Not/A_Zone')).toBeNull();
  });
  it('formats a calendar day without shifting it', () => {
    expect(formatDay('2025-03-01')).toBe('Mar 1');
  });
  it('formats relative times both ways', () => {
    const now = new Date('2025-01-01T12:00:00Z');
    expect(formatRelative('2025-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2025-01-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2025-01-01T15:30:00Z', now)).toBe('in 3 h 30 min');
    expect(formatRelative('2024-12-30T12:00:00Z', now)).toBe('2 days ago');
    expect(formatRelative(null, now)).toBe('Never');
    expect(formatRelative('2025-01-01T16:59:50Z', now)).toBe('in 5 h');
    expect(formatRelative('2025-01-01T13:59:40Z', now)).toBe('in 2 h');
  });
  it('humanizes codes and truncates text', () => {
    expect(humanizeCode('invalid_request')).toBe('Invalid request');
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('a long message body', 10)).toBe('a long me…');
  });
});

describe('groupByNumber', () => {
  const row = (id: number, from: string, receivedAt: string): InboxRow => ({ id, from, message: `m${id}`, encrypted: false, receivedAt, phoneId: null, timeZone: 'Europe/Belgrade' });
  it('groups by number, newest conversation and newest message first', () => {
    const groups = groupByNumber([
      row(1, '+38160111', '2025-01-01T10:00:00Z'),
      row(2, '+38160222', '2025-01-01T11:00:00Z'),
      row(3, '+38160111', '2025-01-01T12:00:00Z'),
      row(4, '+38160222', '2025-01-01T09:00:00Z'),
    ]);
    expect(groups.map((g) => g.from)).toEqual(['+38160111', '+38160222']);
    expect(groups[0].messages.map((m) => m.id)).toEqual([3, 1]);
    expect(groups[1].messages.map((m) => m.id)).toEqual([2, 4]);
    expect(groups[0].latestAt).toBe('2025-01-01T12:00:00Z');
  });
  it('is empty for no rows', () => {
    expect(groupByNumber([])).toEqual([]);
  });
});
