import { describe, expect, it } from 'vitest';
import { PhoneClock } from './phone-clock.js';

describe(PhoneClock.name, () => {
  const instant = new Date('2026-07-01T12:00:00.120Z');

  it('writes UTC dates with milliseconds and Z', () => {
    expect(new PhoneClock(0).format(instant)).toBe('2026-07-01T12:00:00.120Z');
  });

  it('writes dates in the phone\'s time zone with its offset', () => {
    expect(new PhoneClock(180).format(instant)).toBe('2026-07-01T15:00:00.120+03:00');
    expect(new PhoneClock(-330).format(instant)).toBe('2026-07-01T06:30:00.120-05:30');
    expect(Date.parse(new PhoneClock(-330).format(instant))).toBe(instant.getTime());
  });

  it('tells the time of its source', () => {
    expect(new PhoneClock(0, () => instant.getTime()).now()).toEqual(instant);
  });
});
