import { describe, expect, it } from 'vitest';
import { formatSmppTime, InvalidSmppTime, parseSmppTime } from './smpp-time.js';

const now = new Date('2026-05-01T10:00:00Z');

describe(parseSmppTime.name, () => {
  it('reads an empty time as none', () => {
    expect(parseSmppTime('', now)).toBeUndefined();
  });

  it('reads absolute time in UTC', () => {
    expect(parseSmppTime('260502153000000+', now)).toEqual(new Date('2026-05-02T15:30:00.000Z'));
  });

  it('reads tenths of a second and an offset in quarter hours either side of UTC', () => {
    expect(parseSmppTime('260502153045508+', now)).toEqual(new Date('2026-05-02T13:30:45.500Z'));
    expect(parseSmppTime('260502153000022-', now)).toEqual(new Date('2026-05-02T21:00:00.000Z'));
  });

  it('reads relative time from now', () => {
    expect(parseSmppTime('000001020304000R', now)).toEqual(new Date('2026-05-02T12:03:04Z'));
    expect(parseSmppTime('010100000000000R', now)).toEqual(new Date('2027-06-01T10:00:00Z'));
    expect(parseSmppTime('000000480000000R', now)).toEqual(new Date('2026-05-03T10:00:00Z'));
  });

  it('refuses anything else with InvalidSmppTime', () => {
    for (const value of ['2605021530', '260502153000000', '260502153000000*', '261302153000000+', '260230120000000+', '260502253000000+', '260502153000049+', '26050215300000a+']) {
      expect(() => parseSmppTime(value, now), value).toThrow(InvalidSmppTime);
    }
  });
});

describe(formatSmppTime.name, () => {
  it('writes absolute time in UTC that reads back', () => {
    const date = new Date('2026-12-31T23:59:58.700Z');

    expect(formatSmppTime(date)).toBe('261231235958700+');
    expect(parseSmppTime(formatSmppTime(date), now)).toEqual(date);
  });
});
