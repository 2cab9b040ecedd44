import { NotFoundError, Patterns, type PhoneView } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import type { Services } from './commands.js';
import { runAdminCommand } from './run-command.js';

const PHONE: PhoneView = {
  id: 4,
  kind: 'own',
  clientId: 9,
  name: 'Office',
  url: null,
  deviceId: null,
  active: true,
  createdAt: '2026-11-26T08:00:00.000Z',
  lastSeenAt: null,
  health: null,
  state: 'silent',
  lastContactAt: '2026-11-26T08:00:00.000Z',
  dailyLimit: null,
  perMinute: null,
};

/** Fake services: one phone or gateway in dispatch, its client in the gateway; every message is recorded. */
function services(phone: PhoneView = PHONE) {
  const sent: Array<{ pattern: string; payload: Record<string, unknown> }> = [];
  const answering = (answer: (pattern: string, payload: Record<string, unknown>) => unknown) =>
    ({
      send: async (pattern: string, payload: Record<string, unknown>) => {
        sent.push({ pattern, payload });
        return answer(pattern, payload);
      },
    }) as unknown as ServiceClient;
  const dispatch = answering((pattern, payload) => {
    if (pattern === Patterns.dispatch.phoneGet) return phone;
    if (pattern === Patterns.dispatch.phoneSetLimits) {
      if (payload['kind'] !== phone.kind) throw new NotFoundError('phone');
      return { ...phone, ...('dailyLimit' in payload ? { dailyLimit: payload['dailyLimit'] } : {}), ...('perMinute' in payload ? { perMinute: payload['perMinute'] } : {}) };
    }
    throw new Error(`unexpected ${pattern}`);
  });
  const gateway = answering((pattern) => {
    if (pattern === Patterns.gateway.clientGet) return { id: 9, name: 'Acme', timezone: 'Asia/Tokyo', createdAt: '2026-11-20T00:00:00.000Z', disabledAt: null };
    throw new Error(`unexpected ${pattern}`);
  });
  const all: Services = { dispatch, gateway, billing: answering(() => undefined), dashboard: answering(() => undefined) };
  return { all, sent, limitsSent: () => sent.filter((message) => message.pattern === Patterns.dispatch.phoneSetLimits).map((message) => message.payload) };
}

describe('phone set and gateway set', () => {
  it('sets an own phone’s limits in its client’s time zone and prints the phone', async () => {
    const { all, limitsSent } = services();

    const printed = await runAdminCommand(['phone', 'set', '--phone', '4', '--daily', '300', '--per-minute', '20'], all);

    expect(limitsSent()).toEqual([{ phoneId: 4, kind: 'own', dailyLimit: 300, perMinute: 20, timeZone: 'Asia/Tokyo' }]);
    expect(printed).toEqual({
      phone_id: 4,
      kind: 'own',
      client_id: 9,
      name: 'Office',
      url: null,
      active: true,
      state: 'silent',
      last_contact_at: '2026-11-26T08:00:00.000Z',
      last_seen_at: null,
      daily_limit: 300,
      per_minute: 20,
    });
  });

  it('removes a limit with none and leaves the one not given', async () => {
    const { all, limitsSent } = services({ ...PHONE, dailyLimit: 50, perMinute: 5 });

    const printed = await runAdminCommand(['phone', 'set', '--phone', '4', '--per-minute', 'none'], all);

    expect(limitsSent()).toEqual([{ phoneId: 4, kind: 'own', perMinute: null, timeZone: 'Asia/Tokyo' }]);
    expect(printed).toMatchObject({ daily_limit: 50, per_minute: null });
  });

  it('sets a gateway’s limits without a client time zone', async () => {
    const gateway: PhoneView = { ...PHONE, id: 7, kind: 'gateway', clientId: 9 };
    const { all, limitsSent, sent } = services(gateway);

    const printed = await runAdminCommand(['gateway', 'set', '--phone', '7', '--daily', '0'], all);

    expect(limitsSent()).toEqual([{ phoneId: 7, kind: 'gateway', dailyLimit: 0 }]);
    expect(sent.map((message) => message.pattern)).toEqual([Patterns.dispatch.phoneSetLimits]);
    expect(printed).toMatchObject({ phone_id: 7, kind: 'gateway', daily_limit: 0 });
  });

  it.each([
    [['--daily', '-1'], '--daily must be a whole number from 0 to 100000'],
    [['--daily', '1.5'], '--daily must be a whole number'],
    [['--daily', '100001'], '--daily must be a whole number from 0 to 100000'],
    [['--daily', 'lots'], '--daily must be a whole number'],
    [['--per-minute', '0'], '--per-minute must be a whole number from 1 to 100000'],
    [['--per-minute', '99999999999999999999'], '--per-minute must be a whole number'],
    [[], 'give --daily, --per-minute or both'],
    [['--weekly', '5'], 'unknown flag --weekly'],
  ])('refuses %j with invalid_request before asking any service', async (flags, detail) => {
    const { all, sent } = services();

    await expect(runAdminCommand(['phone', 'set', '--phone', '4', ...flags], all)).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(detail) });
    expect(sent).toEqual([]);
  });

  it('answers not_found for phone set on a gateway', async () => {
    const { all } = services({ ...PHONE, id: 7, kind: 'gateway' });

    await expect(runAdminCommand(['phone', 'set', '--phone', '7', '--daily', '5'], all)).rejects.toMatchObject({ code: 'not_found' });
  });
});
