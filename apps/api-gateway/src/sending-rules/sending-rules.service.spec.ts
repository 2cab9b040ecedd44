import { Patterns, type SendingRulesView } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import { SendingRulesService } from './sending-rules.service.js';

const DEFAULTS: SendingRulesView = { routingMode: 'first', stickyDays: 30, sendWindows: [], timeZone: 'Europe/Belgrade', windowOpen: true, windowOpensAt: null };

/** A dispatch that keeps one client's rules, changing what a command gives as dispatch would. */
function setUp(rules: SendingRulesView = { ...DEFAULTS }) {
  const dispatch = {
    send: vi.fn(async (pattern: string, payload: Record<string, unknown>) => {
      if (pattern === Patterns.dispatch.sendingRulesGet) return { ...rules, timeZone: payload['timeZone'] };
      if (pattern === Patterns.dispatch.sendingRulesUpdate) {
        const { clientId: _clientId, timeZone, ...changes } = payload;
        Object.assign(rules, changes);
        return { ...rules, timeZone };
      }
      throw new Error(`unexpected ${pattern}`);
    }),
  };
  return { sut: new SendingRulesService(dispatch as unknown as ServiceClient), dispatch };
}

const OWNER = { clientId: 2, timezone: 'America/New_York' };

describe(SendingRulesService.name, () => {
  it('answers the defaults of a client that set nothing, read in its time zone', async () => {
    const { sut, dispatch } = setUp();

    const answer = await sut.get(OWNER);

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.sendingRulesGet, { clientId: 2, timeZone: 'America/New_York' });
    expect(answer).toEqual({ routing_mode: 'first', sticky_days: 30, send_windows: [], time_zone: 'America/New_York', window_open: true, window_opens_at: null });
  });

  it('changes what is given, in the client’s time zone, and answers the rules as they are now', async () => {
    const { sut, dispatch } = setUp();
    const window = { days: ['mon', 'fri'], from: '22:00', to: '06:00' };

    const answer = await sut.update(OWNER, { routing_mode: 'sticky', send_windows: [window] });

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.sendingRulesUpdate, { clientId: 2, timeZone: 'America/New_York', routingMode: 'sticky', sendWindows: [window] });
    expect(answer).toMatchObject({ routing_mode: 'sticky', sticky_days: 30, send_windows: [window] });
  });

  it('passes null windows on as none', async () => {
    const { sut, dispatch } = setUp({ ...DEFAULTS, sendWindows: [{ days: ['mon'], from: '08:00', to: '09:00' }] });

    const answer = await sut.update(OWNER, { send_windows: null });

    expect(dispatch.send.mock.calls[0]?.[1]).toEqual({ clientId: 2, timeZone: 'America/New_York', sendWindows: [] });
    expect(answer.send_windows).toEqual([]);
  });

  it('refuses a bad body before asking dispatch', async () => {
    const { sut, dispatch } = setUp();

    await expect(sut.update(OWNER, { sticky_days: 0 })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('sticky_days') });
    expect(dispatch.send).not.toHaveBeenCalled();
  });
});
