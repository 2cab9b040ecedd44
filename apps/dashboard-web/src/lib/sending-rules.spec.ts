import { describe, expect, it } from 'vitest';
import { newSendWindow, parseSendingRules, routingModeChoices, sendWindowText } from './sending-rules';

describe('parseSendingRules', () => {
  it('reads the form as the server takes it: days in week order, times as HH:MM', () => {
    expect(parseSendingRules({ routingMode: 'sticky', stickyDays: ' 14 ', sendWindows: [{ days: ['fri', 'mon'], from: '08:00:00', to: '21:30' }] })).toEqual({
      ok: true,
      rules: { routingMode: 'sticky', stickyDays: 14, sendWindows: [{ days: ['mon', 'fri'], from: '08:00', to: '21:30' }] },
    });
    expect(parseSendingRules({ routingMode: 'first', stickyDays: '30', sendWindows: [] })).toEqual({ ok: true, rules: { routingMode: 'first', stickyDays: 30, sendWindows: [] } });
  });

  it.each([
    [{ stickyDays: '0' }, 'Sticky days must be a whole number from 1 to 365.'],
    [{ stickyDays: '366' }, 'Sticky days must be a whole number from 1 to 365.'],
    [{ stickyDays: 'a month' }, 'Sticky days must be a whole number'],
    [{ sendWindows: [newSendWindow(), { ...newSendWindow(), days: [] }] }, 'Window 2 needs at least one day.'],
    [{ sendWindows: [{ ...newSendWindow(), to: '' }] }, 'Window 1 needs a start and an end time'],
    [{ sendWindows: Array.from({ length: 29 }, newSendWindow) }, 'At most 28 send windows can be set.'],
  ])('refuses %j, saying what is wrong', (change, error) => {
    expect(parseSendingRules({ routingMode: 'spread', stickyDays: '30', sendWindows: [], ...change })).toEqual({ ok: false, error: expect.stringContaining(error) });
  });
});

describe('sendWindowText', () => {
  it('names the days in runs, and a window past midnight', () => {
    expect(sendWindowText(newSendWindow())).toBe('Mon–Fri 08:00–21:00');
    expect(sendWindowText({ days: ['sat', 'sun'], from: '22:00', to: '06:00' })).toBe('Sat, Sun 22:00–06:00 (past midnight)');
    expect(sendWindowText({ days: ['mon', 'wed', 'thu', 'fri', 'sun'], from: '09:00', to: '00:00' })).toBe('Mon, Wed–Fri, Sun 09:00–00:00 (until midnight)');
    expect(sendWindowText({ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '08:00', to: '20:00' })).toBe('Every day 08:00–20:00');
  });
});

describe('routingModeChoices', () => {
  it('explains each mode in a sentence, for phones and for a VIP pool of gateways', () => {
    for (const profile of ['A', 'B'] as const) {
      const choices = routingModeChoices(profile);
      expect(choices.map((choice) => choice.mode)).toEqual(['first', 'spread', 'sticky']);
      for (const choice of choices) expect(choice.description).toMatch(/^[A-Z].+\.$/);
    }
    expect(routingModeChoices('A')[0]!.description).toContain('first phone until its daily limit');
  });
});
