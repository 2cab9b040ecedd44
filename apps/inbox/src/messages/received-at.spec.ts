import { describe, expect, it } from 'vitest';
import { instantOf } from './received-at.js';

describe(instantOf.name, () => {
  it.each([
    ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T10:00:00.123Z', '2026-11-22T10:00:00.123Z'],
    ['2026-11-22T10:00:00.123987Z', '2026-11-22T10:00:00.123Z'],
    ['2026-11-22T11:00:00+01:00', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T11:00:00+0100', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T05:30:00-04:30', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22T11:00+01', '2026-11-22T10:00:00.000Z'],
    ['2026-11-22 10:00:00z', '2026-11-22T10:00:00.000Z'],
    ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
  ])('reads %s as the instant %s', (text, iso) => {
    expect(instantOf(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['a local time without a zone', '2026-11-22T10:00:00'],
    ['a date alone', '2026-11-22'],
    ['a week date', '2026-W47'],
    ['an impossible day', '2026-02-30T10:00:00Z'],
    ['an impossible hour', '2026-11-22T24:00:00Z'],
    ['year zero, which Postgres does not have', '0000-06-01T10:00:00Z'],
    ['an instant that falls before year one', '0001-01-01T00:30:00+01:00'],
    ['trailing text', '2026-11-22T10:00:00Z junk'],
  ])('refuses %s', (_, text) => {
    expect(instantOf(text)).toBeUndefined();
  });
});
