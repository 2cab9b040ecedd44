import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { parseSendingRules } from './sending-rules-request.js';

function refusal(body: unknown): { code: string; detail: string } | undefined {
  try {
    parseSendingRules(body);
    return undefined;
  } catch (error) {
    return { code: (error as DomainError).code, detail: (error as DomainError).detail };
  }
}

const WEEKDAYS_8_TO_21 = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' };

describe(parseSendingRules.name, () => {
  it('reads each setting alone or together; a field left out stays out', () => {
    expect(parseSendingRules({ routing_mode: 'sticky' })).toEqual({ routingMode: 'sticky' });
    expect(parseSendingRules({ sticky_days: 1 })).toEqual({ stickyDays: 1 });
    expect(parseSendingRules({ routing_mode: 'spread', sticky_days: 365, send_windows: [WEEKDAYS_8_TO_21] })).toEqual({
      routingMode: 'spread',
      stickyDays: 365,
      sendWindows: [WEEKDAYS_8_TO_21],
    });
  });

  it('reads [] and null alike as no windows', () => {
    expect(parseSendingRules({ send_windows: [] })).toEqual({ sendWindows: [] });
    expect(parseSendingRules({ send_windows: null })).toEqual({ sendWindows: [] });
  });

  it('takes a window that runs past midnight, one to 24:00, and 28 windows', () => {
    const night = { days: ['sat'], from: '22:00', to: '06:00' };
    const toMidnight = { days: ['sun'], from: '10:00', to: '24:00' };
    expect(parseSendingRules({ send_windows: [night, toMidnight] }).sendWindows).toEqual([night, toMidnight]);
    expect(parseSendingRules({ send_windows: Array.from({ length: 28 }, () => WEEKDAYS_8_TO_21) }).sendWindows).toHaveLength(28);
  });

  it.each([
    [{ routing_mode: 'random' }, 'routing_mode must be one of "first", "spread", "sticky"'],
    [{ routing_mode: null }, 'routing_mode must be one of'],
    [{ sticky_days: 0 }, 'sticky_days must be a whole number of days from 1 to 365, got 0'],
    [{ sticky_days: 366 }, 'sticky_days must be a whole number of days from 1 to 365'],
    [{ sticky_days: 2.5 }, 'sticky_days must be a whole number'],
    [{ sticky_days: '30' }, 'sticky_days must be a whole number'],
    [{ sticky_days: null }, 'sticky_days must be a whole number'],
    [{ send_windows: 'mon-fri 08:00-21:00' }, 'send_windows must be a list'],
    [{ send_windows: Array.from({ length: 29 }, () => WEEKDAYS_8_TO_21) }, 'send_windows may hold at most 28 windows; it holds 29'],
    [{ send_windows: [null] }, 'send_windows[0] must be an object with days, from and to'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, tz: 'UTC' }] }, 'send_windows[0] has unknown field "tz"'],
    [{ send_windows: [WEEKDAYS_8_TO_21, { ...WEEKDAYS_8_TO_21, days: ['monday'] }] }, 'send_windows[1].days must be a list of 1 to 7 different days out of "mon", "tue", "wed", "thu", "fri", "sat", "sun"'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, days: [] }] }, 'send_windows[0].days must be a list of 1 to 7'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, days: ['mon', 'mon'] }] }, 'send_windows[0].days must be a list of 1 to 7 different days'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, days: 'mon' }] }, 'send_windows[0].days must be a list'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, from: '8:00' }] }, 'send_windows[0].from must be a time of day "HH:MM", 00:00 to 24:00'],
    [{ send_windows: [{ ...WEEKDAYS_8_TO_21, to: '24:30' }] }, 'send_windows[0].to must be a time of day'],
    [{ send_windows: [{ days: ['mon'], from: '08:00' }] }, 'send_windows[0].to must be a time of day'],
    [{}, 'give routing_mode, sticky_days, send_windows or more than one'],
    [{ routing_mode: 'first', timezone: 'UTC' }, 'unknown field "timezone": only routing_mode, sticky_days and send_windows can be set'],
    [{ routingMode: 'first' }, 'unknown field "routingMode"'],
    [[], 'the body must be'],
  ])('refuses %j with invalid_request naming the field: %s', (body, detail) => {
    expect(refusal(body)).toEqual({ code: 'invalid_request', detail: expect.stringContaining(detail) });
  });

  it('answers a body that is not JSON with invalid_json', () => {
    expect(refusal(UNPARSABLE_BODY)?.code).toBe('invalid_json');
  });
});
