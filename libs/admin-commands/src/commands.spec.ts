import { ConflictError, InvalidRequestError, NotFoundError, Patterns, type PhoneView, type SendingRulesView, type SmppCredentialView } from '@smsq/contracts';
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
  monthlyRecipients: null,
  jitter: null,
  sims: 1,
  pausedUntil: null,
  pauseReason: null,
  number: null,
};

const CREDENTIAL: SmppCredentialView = { id: 5, clientId: 9, systemId: 'kannel', sourceAddresses: [], createdAt: '2026-11-26T08:00:00.000Z', lastBoundAt: null, revokedAt: null };

const DEFAULT_RULES: SendingRulesView = { routingMode: 'first', stickyDays: 30, sendWindows: [], timeZone: 'Europe/Belgrade', windowOpen: true, windowOpensAt: null };

/** Fake services: one phone or gateway in dispatch, its client in the gateway; every message is recorded. */
function services(phone: PhoneView = PHONE, rules: SendingRulesView = { ...DEFAULT_RULES }) {
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
      const { phoneId: _phoneId, kind: _kind, timeZone: _timeZone, ...limits } = payload;
      return { ...phone, ...limits };
    }
    if (pattern === Patterns.dispatch.phoneResume) {
      if (payload['kind'] !== phone.kind || payload['phoneId'] !== phone.id) throw new NotFoundError('phone');
      return { ...phone, pausedUntil: null, pauseReason: null };
    }
    if (pattern === Patterns.dispatch.sendingRulesGet) return { ...rules, timeZone: payload['timeZone'] };
    if (pattern === Patterns.dispatch.sendingRulesUpdate) {
      const { clientId: _clientId, timeZone, ...changes } = payload;
      return { ...rules, ...changes, timeZone };
    }
    throw new Error(`unexpected ${pattern}`);
  });
  const gateway = answering((pattern, payload) => {
    if (pattern === Patterns.gateway.phoneNumberSet) {
      if (payload['kind'] !== phone.kind || payload['phoneId'] !== phone.id) throw new NotFoundError('phone');
      if (payload['number'] === '12') throw new InvalidRequestError('number: "12" is not a usable phone number');
      // The gateway reads the number as a recipient; here only the E.164 form is given.
      return { ...phone, number: payload['number'] };
    }
    if (pattern === Patterns.gateway.smppCredentialCreate) {
      if (payload['systemId'] === 'taken') throw new ConflictError('the system_id "taken" is taken');
      return { ...CREDENTIAL, systemId: payload['systemId'] ?? 'c9k3m9xq', sourceAddresses: payload['sourceAddresses'] ?? [], password: 'q7Rk2mXa' };
    }
    if (pattern === Patterns.gateway.smppCredentialList) return [CREDENTIAL, { ...CREDENTIAL, id: 6, revokedAt: '2026-11-27T08:00:00.000Z' }];
    if (pattern === Patterns.gateway.smppCredentialRevoke) {
      if (payload['clientId'] !== 9) throw new NotFoundError('SMPP credential');
      return { ...CREDENTIAL, revokedAt: '2026-11-27T08:00:00.000Z' };
    }
    if (pattern === Patterns.gateway.clientGet) {
      if (payload['clientId'] !== 9) throw new NotFoundError('client');
      return { id: 9, name: 'Acme', timezone: 'Asia/Tokyo', createdAt: '2026-11-20T00:00:00.000Z', disabledAt: null };
    }
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
      number: null,
      url: null,
      active: true,
      state: 'silent',
      last_contact_at: '2026-11-26T08:00:00.000Z',
      last_seen_at: null,
      daily_limit: 300,
      per_minute: 20,
      monthly_recipients: null,
      jitter: null,
      sims: 1,
      paused_until: null,
      pause_reason: null,
    });
  });

  it('sets the recipient cap, the jitter and the SIM count, none removing the cap or the jitter', async () => {
    const { all, limitsSent } = services({ ...PHONE, monthlyRecipients: 100, jitter: 5 });

    const printed = await runAdminCommand(['phone', 'set', '--phone', '4', '--monthly-recipients', 'none', '--jitter', '600', '--sims', '2'], all);

    expect(limitsSent()).toEqual([{ phoneId: 4, kind: 'own', monthlyRecipients: null, jitter: 600, sims: 2, timeZone: 'Asia/Tokyo' }]);
    expect(printed).toMatchObject({ monthly_recipients: null, jitter: 600, sims: 2 });
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
    [['--monthly-recipients', '-1'], '--monthly-recipients must be a whole number from 0 to 100000'],
    [['--monthly-recipients', '100001'], '--monthly-recipients must be a whole number from 0 to 100000'],
    [['--jitter', '601'], '--jitter must be a whole number from 0 to 600, or none'],
    [['--jitter', 'some'], '--jitter must be a whole number from 0 to 600'],
    [['--sims', '3'], '--sims must be 1 or 2'],
    [['--sims', '0'], '--sims must be 1 or 2'],
    [['--sims', 'none'], '--sims must be 1 or 2'],
    [[], 'give --number (a number, or none to forget it), --daily, --per-minute, --monthly-recipients, --jitter (a number, or none for no limit) or --sims'],
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

describe('phone set --number and gateway set --number', () => {
  it('records an own phone’s number through the gateway, which reads it as a recipient, and prints the phone', async () => {
    const { all, sent } = services();

    const printed = await runAdminCommand(['phone', 'set', '--phone', '4', '--number', '+381641234567'], all);

    expect(sent).toEqual([{ pattern: Patterns.gateway.phoneNumberSet, payload: { phoneId: 4, kind: 'own', number: '+381641234567' } }]);
    expect(printed).toMatchObject({ phone_id: 4, number: '+381641234567' });
  });

  it('forgets a gateway’s number with none, and sets limits in the same command', async () => {
    const gateway: PhoneView = { ...PHONE, id: 7, kind: 'gateway', number: '+381641234567' };
    const { all, sent } = services(gateway);

    const printed = await runAdminCommand(['gateway', 'set', '--phone', '7', '--number', 'none', '--daily', '10'], all);

    expect(sent.map((message) => message.payload)).toEqual([{ phoneId: 7, kind: 'gateway', number: null }, { phoneId: 7, kind: 'gateway', dailyLimit: 10 }]);
    expect(printed).toMatchObject({ phone_id: 7, daily_limit: 10 });
  });

  it('prints the gateway’s refusal of a number that is not usable', async () => {
    const { all } = services();

    await expect(runAdminCommand(['phone', 'set', '--phone', '4', '--number', '12'], all)).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('number') });
  });
});

describe('smpp-credential create, list and revoke', () => {
  it('creates credentials for a client and prints the system_id and the password once', async () => {
    const { all, sent } = services();

    const printed = await runAdminCommand(['smpp-credential', 'create', '--client', '9', '--system-id', 'kannel', '--source', 'ACME, +381641234567'], all);

    expect(sent).toEqual([{ pattern: Patterns.gateway.smppCredentialCreate, payload: { clientId: 9, systemId: 'kannel', sourceAddresses: ['ACME', '+381641234567'] } }]);
    expect(printed).toEqual({
      smpp_credential_id: 5,
      client_id: 9,
      system_id: 'kannel',
      source_addresses: ['ACME', '+381641234567'],
      created_at: '2026-11-26T08:00:00.000Z',
      last_bound_at: null,
      revoked_at: null,
      password: 'q7Rk2mXa',
    });
  });

  it('lets the gateway pick the system_id when none is given', async () => {
    const { all, sent } = services();

    await expect(runAdminCommand(['smpp-credential', 'create', '--client', '9'], all)).resolves.toMatchObject({ system_id: 'c9k3m9xq', source_addresses: [] });
    expect(sent[0]!.payload).toEqual({ clientId: 9 });
  });

  it('prints the gateway’s conflict for a taken system_id', async () => {
    const { all } = services();

    await expect(runAdminCommand(['smpp-credential', 'create', '--client', '9', '--system-id', 'taken'], all)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('lists a client’s credentials without their passwords, and revokes one', async () => {
    const { all, sent } = services();

    const listed = (await runAdminCommand(['smpp-credential', 'list', '--client', '9'], all)) as { smpp_credentials: Array<Record<string, unknown>> };
    expect(listed.smpp_credentials.map((credential) => [credential['smpp_credential_id'], credential['revoked_at']])).toEqual([
      [5, null],
      [6, '2026-11-27T08:00:00.000Z'],
    ]);
    expect(JSON.stringify(listed)).not.toContain('password');

    await expect(runAdminCommand(['smpp-credential', 'revoke', '--client', '9', '--id', '5'], all)).resolves.toMatchObject({ smpp_credential_id: 5, revoked_at: '2026-11-27T08:00:00.000Z' });
    expect(sent.at(-1)).toEqual({ pattern: Patterns.gateway.smppCredentialRevoke, payload: { clientId: 9, id: 5 } });
    await expect(runAdminCommand(['smpp-credential', 'revoke', '--client', '8', '--id', '5'], all)).rejects.toMatchObject({ code: 'not_found' });
  });

  it.each([
    [['smpp-credential', 'create'], '--client is required'],
    [['smpp-credential', 'create', '--client', '9', '--source', ' , '], '--source must list one or more'],
    [['smpp-credential', 'create', '--client', '9', '--password', 'mine'], 'unknown flag --password'],
    [['smpp-credential', 'revoke', '--client', '9'], '--id is required'],
  ])('refuses %j before asking the gateway', async (argv, detail) => {
    const { all, sent } = services();

    await expect(runAdminCommand(argv, all)).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(detail) });
    expect(sent).toEqual([]);
  });
});

describe('phone resume and gateway resume', () => {
  it('lifts an own phone’s pause and prints the phone', async () => {
    const { all, sent } = services({ ...PHONE, pausedUntil: '2026-11-26T09:15:00.000Z', pauseReason: 'carrier_volume' });

    const printed = await runAdminCommand(['phone', 'resume', '--phone', '4'], all);

    expect(sent).toEqual([{ pattern: Patterns.dispatch.phoneResume, payload: { phoneId: 4, kind: 'own' } }]);
    expect(printed).toMatchObject({ phone_id: 4, paused_until: null, pause_reason: null });
  });

  it('lifts a gateway’s pause, and answers not_found for the other kind', async () => {
    const gateway: PhoneView = { ...PHONE, id: 7, kind: 'gateway', pausedUntil: '2026-11-26T09:15:00.000Z', pauseReason: 'carrier_volume' };
    const { all, sent } = services(gateway);

    await expect(runAdminCommand(['gateway', 'resume', '--phone', '7'], all)).resolves.toMatchObject({ phone_id: 7, kind: 'gateway', paused_until: null });
    expect(sent[0]).toEqual({ pattern: Patterns.dispatch.phoneResume, payload: { phoneId: 7, kind: 'gateway' } });
    await expect(runAdminCommand(['phone', 'resume', '--phone', '7'], all)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('needs --phone and nothing else', async () => {
    const { all, sent } = services();

    await expect(runAdminCommand(['phone', 'resume'], all)).rejects.toMatchObject({ code: 'invalid_request', detail: '--phone is required' });
    await expect(runAdminCommand(['phone', 'resume', '--phone', '4', '--client', '9'], all)).rejects.toMatchObject({ code: 'invalid_request', detail: 'unknown flag --client' });
    expect(sent).toEqual([]);
  });
});

describe('sending-rules show and sending-rules set', () => {
  it('shows a client’s rules, read in its time zone, with the windows also as text', async () => {
    const { all, sent } = services(PHONE, { ...DEFAULT_RULES, sendWindows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }] });

    const printed = await runAdminCommand(['sending-rules', 'show', '--client', '9'], all);

    expect(sent.map((message) => message.pattern)).toEqual([Patterns.gateway.clientGet, Patterns.dispatch.sendingRulesGet]);
    expect(sent[1]!.payload).toEqual({ clientId: 9, timeZone: 'Asia/Tokyo' });
    expect(printed).toEqual({
      client_id: 9,
      routing_mode: 'first',
      sticky_days: 30,
      send_windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' }],
      time_zone: 'Asia/Tokyo',
      window_open: true,
      window_opens_at: null,
      windows: 'mon-fri 08:00-21:00',
    });
  });

  it('sets the mode, the sticky days and the windows written as text', async () => {
    const { all, sent } = services();

    const printed = await runAdminCommand(['sending-rules', 'set', '--client', '9', '--mode', 'sticky', '--sticky-days', '14', '--windows', 'mon-fri 08:00-21:00, sat 10:00-14:00'], all);

    expect(sent[1]).toEqual({
      pattern: Patterns.dispatch.sendingRulesUpdate,
      payload: {
        clientId: 9,
        timeZone: 'Asia/Tokyo',
        routingMode: 'sticky',
        stickyDays: 14,
        sendWindows: [
          { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '21:00' },
          { days: ['sat'], from: '10:00', to: '14:00' },
        ],
      },
    });
    expect(printed).toMatchObject({ client_id: 9, routing_mode: 'sticky', sticky_days: 14, windows: 'mon-fri 08:00-21:00, sat 10:00-14:00' });
  });

  it('removes the windows with --windows none, leaving the rest', async () => {
    const { all, sent } = services(PHONE, { ...DEFAULT_RULES, routingMode: 'spread', sendWindows: [{ days: ['sun'], from: '10:00', to: '12:00'}] });

    const printed = await runAdminCommand(['sending-rules', 'set', '--client', '9', '--windows', 'none'], all);

    expect(sent[1]!.payload).toEqual({ clientId: 9, timeZone: 'Asia/Tokyo', sendWindows: [] });
    expect(printed).toMatchObject({ routing_mode: 'spread', send_windows: [], windows: 'none' });
  });

  it('answers not_found for an unknown client', async () => {
    const { all } = services();

    await expect(runAdminCommand(['sending-rules', 'show', '--client', '10'], all)).rejects.toMatchObject({ code: 'not_found' });
  });

  it.each([
    [[], 'give --mode, --sticky-days, --windows or more than one'],
    [['--mode', 'random'], '--mode must be one of first, spread, sticky'],
    [['--sticky-days', '0'], '--sticky-days must be a whole number of days from 1 to 365'],
    [['--sticky-days', '366'], '--sticky-days must be a whole number of days from 1 to 365'],
    [['--sticky-days', '1.5'], '--sticky-days must be a whole number'],
    [['--windows', 'weekdays 8-21'], 'is not a send window'],
    [['--windows', 'mon-fri 08:00-25:00'], '"25:00" in "mon-fri 08:00-25:00" is not a time of day'],
    [['--timezone', 'UTC'], 'unknown flag --timezone'],
  ])('refuses %j with invalid_request before asking any service', async (flags, detail) => {
    const { all, sent } = services();

    await expect(runAdminCommand(['sending-rules', 'set', '--client', '9', ...flags], all)).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(detail) });
    expect(sent).toEqual([]);
  });
});
