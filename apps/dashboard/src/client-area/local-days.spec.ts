import { describe, expect, it } from 'vitest';
import { instantsOfLocalDays } from './local-days.js';

describe(instantsOfLocalDays.name, () => {
  it('turns local days into the instants their days start, to being exclusive of the day after', () => {
    expect(instantsOfLocalDays({ from: '2026-11-01', to: '2026-11-22' }, 'Europe/Belgrade')).toEqual({ from: '2026-10-31T23:00:00.000Z', to: '2026-11-22T23:00:00.000Z' });
  });

  it('follows daylight saving time (Belgrade moves to UTC+2 on 29 March 2026)', () => {
    expect(instantsOfLocalDays({ from: '2026-03-29', to: '2026-03-29' }, 'Europe/Belgrade')).toEqual({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' });
  });

  it('leaves out what is not asked for', () => {
    expect(instantsOfLocalDays({}, 'UTC')).toEqual({ from: undefined, to: undefined });
  });

  it.each(['2026-02-30', '22.11.2026', '2026-11-22T10:00', ''])('refuses %j as invalid_request', (day) => {
    expect(() => instantsOfLocalDays({ from: day }, 'UTC')).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
