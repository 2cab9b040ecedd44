import { describe, expect, it } from 'vitest';
import { isWindowOpen, minuteOfWeek, nextWindowOpening, weekMinutesOf } from './sending-rules.js';

describe(weekMinutesOf.name, () => {
  it('turns windows into sorted, merged minutes of the week, splitting one over Sunday midnight', () => {
    expect(weekMinutesOf([])).toEqual([]);
    expect(weekMinutesOf([{ days: ['tue', 'mon'], from: '08:00', to: '21:00' }])).toEqual([480, 1260, 1440 + 480, 1440 + 1260]);
    expect(weekMinutesOf([{ days: ['sun'], from: '22:00', to: '06:00' }])).toEqual([0, 360, 6 * 1440 + 1320, 7 * 1440]);
    expect(weekMinutesOf([{ days: ['mon'], from: '08:00', to: '12:00' }, { days: ['mon'], from: '11:00', to: '24:00' }])).toEqual([480, 1440]);
  });
});

describe(isWindowOpen.name, () => {
  // Monday 2026-11-30 07:59 and 08:00 in Belgrade (UTC+1).
  const beforeEight = new Date('2026-11-30T06:59:00Z');
  const atEight = new Date('2026-11-30T07:00:00Z');
  const weekdays = weekMinutesOf([{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }]);

  it('reads the windows in the client’s zone, to the minute', () => {
    expect(minuteOfWeek(atEight, 'Europe/Belgrade')).toBe(480);
    expect(isWindowOpen(weekdays, 'Europe/Belgrade', beforeEight)).toBe(false);
    expect(isWindowOpen(weekdays, 'Europe/Belgrade', atEight)).toBe(true);
    expect(isWindowOpen([], 'Europe/Belgrade', beforeEight)).toBe(true);
  });

  it('says when a closed window opens next', () => {
    expect(nextWindowOpening(weekdays, 'Europe/Belgrade', beforeEight)).toEqual(atEight);
    expect(nextWindowOpening(weekdays, 'Europe/Belgrade', atEight)).toBeNull();
    // Friday 21:00 Belgrade: Monday 08:00.
    expect(nextWindowOpening(weekdays, 'Europe/Belgrade', new Date('2026-12-04T20:00:00Z'))).toEqual(new Date('2026-12-07T07:00:00Z'));
    // Across the spring change (Sunday 29 March 2026, 02:00 → 03:00 in Belgrade): Monday 08:00 is UTC+2.
    expect(nextWindowOpening(weekdays, 'Europe/Belgrade', new Date('2026-03-27T21:00:00Z'))).toEqual(new Date('2026-03-30T06:00:00Z'));
  });
});
