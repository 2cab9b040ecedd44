import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { localNow, parseInstant, parseSchedule } from './local-datetime.js';

const NOW = new Date('2026-11-22T10:15:30.000Z');

describe(parseSchedule.name, () => {
  it.each([
    ['2026-12-01 09:30:00', '2026-12-01 09:30:00', '2026-12-01T08:30:00.000Z'],
    ['2026-12-01T09:30', '2026-12-01 09:30:00', '2026-12-01T08:30:00.000Z'],
    ['2026-12-01T09:30:45', '2026-12-01 09:30:45', '2026-12-01T08:30:45.000Z'],
    ['2026-12-01 09:30', '2026-12-01 09:30:00', '2026-12-01T08:30:00.000Z'],
    ['2026-07-01 09:30:00', '2026-07-01 09:30:00', '2026-07-01T07:30:00.000Z'],
  ])('reads %s in Europe/Belgrade', (input, local, instant) => {
    const schedule = parseSchedule(input, 'Europe/Belgrade', NOW);
    expect(schedule.local).toBe(local);
    expect(schedule.at.toISOString()).toBe(instant);
  });

  it('takes omitted, null and empty as now, shown in the client zone', () => {
    for (const value of [undefined, null, '']) {
      const schedule = parseSchedule(value, 'Asia/Tokyo', NOW);
      expect(schedule.at).toEqual(NOW);
      expect(schedule.local).toBe('2026-11-22 19:15:30');
    }
  });

  it.each([
    '2026-02-29 10:00:00',
    '2026-04-31 10:00',
    '2026-13-01 10:00',
    '2026-12-01 24:00',
    '2026-12-01 10:60',
    '2026-12-01',
    '2026-12-01T10',
    '2026-12-01T10:00:00Z',
    '2026-12-01T10:00:00+01:00',
    ' 2026-12-01 10:00:00 x',
    'next monday',
    '2026-03-29 02:30:00',
    '0000-01-01 00:00:00',
    '0999-12-31 23:59',
  ])('refuses %j', (input) => {
    expect(() => parseSchedule(input, 'Europe/Belgrade', NOW)).toThrow(DomainError);
    try {
      parseSchedule(input, 'Europe/Belgrade', NOW);
    } catch (error) {
      expect((error as DomainError).code).toBe('invalid_scheduled_at');
    }
  });

  it('refuses a value that is not a string', () => {
    expect(() => parseSchedule(20261201, 'Europe/Belgrade', NOW)).toThrow('must be a string');
  });
});

describe(parseInstant.name, () => {
  it('reads an ISO 8601 instant with its offset, and a local datetime in the zone', () => {
    expect(parseInstant('2026-11-22T10:15:30Z', 'Europe/Belgrade', 'invalid_request').toISOString()).toBe('2026-11-22T10:15:30.000Z');
    expect(parseInstant('2026-11-22T11:15:30+01:00', 'Asia/Tokyo', 'invalid_request').toISOString()).toBe('2026-11-22T10:15:30.000Z');
    expect(parseInstant('2026-11-22 11:15:30', 'Europe/Belgrade', 'invalid_request').toISOString()).toBe('2026-11-22T10:15:30.000Z');
  });

  it('refuses anything else with the code it is given', () => {
    expect(() => parseInstant('yesterday', 'Europe/Belgrade', 'invalid_request')).toThrow(DomainError);
    expect(() => parseInstant('2026-02-30T10:00:00Z', 'Europe/Belgrade', 'invalid_request')).toThrow('not a real date');
  });
});

describe(localNow.name, () => {
  it("shows an instant in the zone exactly as Luxon does: around clock changes, at midnight, in zones off the hour", () => {
    const zones = ['UTC', 'Europe/Belgrade', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu'];
    const instants = [
      Date.UTC(2026, 2, 29, 0, 59, 59), Date.UTC(2026, 2, 29, 1, 0, 0), Date.UTC(2026, 9, 25, 0, 59, 59), Date.UTC(2026, 9, 25, 1, 0, 0),
      Date.UTC(2026, 2, 8, 6, 59, 59), Date.UTC(2026, 2, 8, 7, 0, 0), Date.UTC(2026, 10, 1, 5, 59, 59), Date.UTC(2026, 10, 1, 6, 0, 0),
      Date.UTC(2026, 11, 31, 23, 59, 59), Date.UTC(2027, 0, 1, 0, 0, 0), Date.UTC(2026, 4, 31, 22, 0, 0),
    ];
    // And a spread of instants over a century, a prime number of seconds apart.
    for (let at = Date.UTC(1971, 0, 1); at < Date.UTC(2071, 0, 1); at += 7_919_993_000) instants.push(at);
    for (const timeZone of zones) {
      for (const at of instants) {
        expect(localNow(new Date(at), timeZone), `${new Date(at).toISOString()} in ${timeZone}`).toBe(DateTime.fromMillis(at, { zone: timeZone }).toFormat('yyyy-MM-dd HH:mm:ss'));
      }
    }
  });
});
