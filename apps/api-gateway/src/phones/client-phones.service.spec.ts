import { NotFoundError, Patterns, type PhoneDetails, type Profile } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config.js';
import { ClientPhonesService } from './client-phones.service.js';

function phone(id: number, overrides: Partial<PhoneDetails> = {}): PhoneDetails {
  return {
    id,
    kind: 'own',
    clientId: 2,
    name: `Phone ${id}`,
    url: null,
    deviceId: null,
    active: true,
    createdAt: '2026-11-26T08:00:00.000Z',
    lastSeenAt: '2026-11-26T09:59:50.000Z',
    health: null,
    state: 'online',
    lastContactAt: '2026-11-26T09:59:50.000Z',
    dailyLimit: null,
    perMinute: null,
    monthlyRecipients: null,
    jitter: null,
    sims: 1,
    pausedUntil: null,
    pauseReason: null,
    number: null,
    lastAssignedAt: null,
    sentToday: 4,
    partsToday: 5,
    recipientsThisMonth: 3,
    waitingTasks: 0,
    ...overrides,
  };
}

/** A dispatch that keeps the client's phones, and sets limits on those it owns as dispatch would. */
function setUp(profile: Profile, phones: PhoneDetails[] = [phone(5), phone(3, { state: 'silent', waitingTasks: 2 })]) {
  const dispatch = {
    send: vi.fn(async (pattern: string, payload: Record<string, unknown>) => {
      if (pattern === Patterns.dispatch.phoneList) return phones.filter((candidate) => candidate.clientId === payload['clientId']);
      if (pattern === Patterns.dispatch.phoneSetLimits) {
        const target = phones.find((candidate) => candidate.id === payload['phoneId'] && candidate.clientId === payload['clientId']);
        if (!target) throw new NotFoundError('phone');
        if ('dailyLimit' in payload) target.dailyLimit = payload['dailyLimit'] as number | null;
        if ('perMinute' in payload) target.perMinute = payload['perMinute'] as number | null;
        if ('monthlyRecipients' in payload) target.monthlyRecipients = payload['monthlyRecipients'] as number | null;
        if ('jitter' in payload) target.jitter = payload['jitter'] as number | null;
        if ('sims' in payload) target.sims = payload['sims'] as number;
        return target;
      }
      if (pattern === Patterns.dispatch.phoneSetNumber) {
        const target = phones.find((candidate) => candidate.id === payload['phoneId'] && candidate.clientId === payload['clientId'] && candidate.kind === payload['kind']);
        if (!target) throw new NotFoundError('phone');
        target.number = payload['number'] as string | null;
        return target;
      }
      if (pattern === Patterns.dispatch.phoneResume) {
        const target = phones.find((candidate) => candidate.id === payload['phoneId'] && candidate.clientId === payload['clientId'] && candidate.kind === payload['kind']);
        if (!target) throw new NotFoundError('phone');
        Object.assign(target, { pausedUntil: null, pauseReason: null });
        return target;
      }
      throw new Error(`unexpected ${pattern}`);
    }),
  };
  const sut = new ClientPhonesService({ profile } as GatewayConfig, dispatch as unknown as ServiceClient);
  return { sut, dispatch };
}

const OWNER = { clientId: 2, timezone: 'America/New_York' };

describe(ClientPhonesService.name, () => {
  it('lists the client’s own phones in Profile A, lowest id first, as the public phone object', async () => {
    const { sut, dispatch } = setUp('A');

    const { phones } = await sut.list(OWNER);

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneList, { clientId: 2, kind: 'own' });
    expect(phones.map((listed) => listed.id)).toEqual([3, 5]);
    expect(phones[0]).toEqual({
      id: 3,
      name: 'Phone 3',
      number: null,
      kind: 'own',
      state: 'silent',
      active: true,
      last_contact_at: '2026-11-26T09:59:50.000Z',
      last_seen_at: '2026-11-26T09:59:50.000Z',
      daily_limit: null,
      per_minute: null,
      monthly_recipients: null,
      jitter: null,
      sims: 1,
      sent_today: 4,
      parts_today: 5,
      recipients_this_month: 3,
      paused_until: null,
      pause_reason: null,
      waiting_tasks: 2,
      health: null,
    });
  });

  it('lists the client’s VIP gateways in Profile B', async () => {
    const { sut, dispatch } = setUp('B', [phone(9, { kind: 'gateway' })]);

    expect((await sut.list(OWNER)).phones.map((listed) => listed.kind)).toEqual(['gateway']);
    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneList, { clientId: 2, kind: 'gateway' });
  });

  it('sets the limits of an own phone in the client’s time zone and answers the phone as it is now', async () => {
    const { sut, dispatch } = setUp('A');

    const answer = await sut.update(OWNER, '5', { daily_limit: 200, per_minute: null });

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneSetLimits, { phoneId: 5, kind: 'own', clientId: 2, dailyLimit: 200, perMinute: null, timeZone: 'America/New_York' });
    expect(answer).toMatchObject({ id: 5, daily_limit: 200, per_minute: null });
  });

  it('sets the recipient cap, the jitter and the SIM count, null removing the cap', async () => {
    const { sut, dispatch } = setUp('A', [phone(5, { monthlyRecipients: 250 })]);

    const answer = await sut.update(OWNER, '5', { monthly_recipients: null, jitter: 45, sims: 2 });

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneSetLimits, { phoneId: 5, kind: 'own', clientId: 2, monthlyRecipients: null, jitter: 45, sims: 2, timeZone: 'America/New_York' });
    expect(answer).toMatchObject({ id: 5, monthly_recipients: null, jitter: 45, sims: 2 });
  });

  it('leaves out the limit not given, so it stays as it is', async () => {
    const { sut, dispatch } = setUp('A', [phone(5, { dailyLimit: 100 })]);

    const answer = await sut.update(OWNER, '5', { per_minute: 6 });

    expect(dispatch.send.mock.calls.find(([pattern]) => pattern === Patterns.dispatch.phoneSetLimits)?.[1]).not.toHaveProperty('dailyLimit');
    expect(answer).toMatchObject({ daily_limit: 100, per_minute: 6 });
  });

  it.each(['77', 'abc', '0', '99999999999'])('answers not_found for a phone that is not the client’s: %s', async (id) => {
    const { sut } = setUp('A', [phone(5), phone(77, { clientId: 8 })]);

    await expect(sut.update(OWNER, id, { daily_limit: 1 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers not_found for any PATCH in Profile B: the gateways are the admin’s', async () => {
    const { sut, dispatch } = setUp('B', [phone(9, { kind: 'gateway' })]);

    await expect(sut.update(OWNER, '9', { daily_limit: 1 })).rejects.toMatchObject({ code: 'not_found' });
    expect(dispatch.send).not.toHaveBeenCalled();
  });

  it('resumes a paused own phone and answers it as it is now', async () => {
    const { sut, dispatch } = setUp('A', [phone(5, { pausedUntil: '2026-11-26T10:14:00.000Z', pauseReason: 'carrier_volume' })]);

    const answer = await sut.resume(OWNER, '5');

    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneResume, { phoneId: 5, kind: 'own', clientId: 2 });
    expect(answer).toMatchObject({ id: 5, paused_until: null, pause_reason: null });
  });

  it.each(['77', 'abc', '0'])('answers not_found when resuming a phone that is not the client’s: %s', async (id) => {
    const { sut } = setUp('A', [phone(5), phone(77, { clientId: 8 })]);

    await expect(sut.resume(OWNER, id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers not_found for resume in Profile B without asking dispatch', async () => {
    const { sut, dispatch } = setUp('B', [phone(9, { kind: 'gateway' })]);

    await expect(sut.resume(OWNER, '9')).rejects.toMatchObject({ code: 'not_found' });
    expect(dispatch.send).not.toHaveBeenCalled();
  });

  it('refuses bad limits before asking dispatch', async () => {
    const { sut, dispatch } = setUp('A');

    await expect(sut.update(OWNER, '5', { daily_limit: -1 })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('daily_limit') });
    expect(dispatch.send).not.toHaveBeenCalled();
  });

  it('records the phone’s number read as a recipient is (a local 06… number is Serbian in Profile A), and null forgets it', async () => {
    const { sut, dispatch } = setUp('A');

    expect(await sut.update(OWNER, '5', { number: '064 123-4567' })).toMatchObject({ id: 5, number: '+381641234567' });
    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.phoneSetNumber, { phoneId: 5, kind: 'own', clientId: 2, number: '+381641234567' });
    expect(dispatch.send.mock.calls.some(([pattern]) => pattern === Patterns.dispatch.phoneSetLimits)).toBe(false);

    expect(await sut.update(OWNER, '5', { number: null })).toMatchObject({ id: 5, number: null });
    expect(dispatch.send).toHaveBeenLastCalledWith(Patterns.dispatch.phoneList, expect.anything());
  });

  it('sets the number and limits of one PATCH together', async () => {
    const { sut } = setUp('A');

    expect(await sut.update(OWNER, '5', { number: '+44 7911 123456', daily_limit: 50 })).toMatchObject({ number: '+447911123456', daily_limit: 50 });
  });

  it.each([
    ['12', 'number:'],
    ['+381 64 12', 'number:'],
    ['0041 abc', 'number:'],
    ['641234567', 'country code'],
    ['', "number must be the phone's own number"],
    [42, "number must be the phone's own number"],
  ])('refuses the number %j before asking dispatch, naming number', async (number, detail) => {
    const { sut, dispatch } = setUp('A');

    await expect(sut.update(OWNER, '5', { number, daily_limit: 5 })).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(detail) });
    expect(dispatch.send).not.toHaveBeenCalled();
  });

  it('answers not_found for a number on a gateway in Profile B, which only an admin sets', async () => {
    const { sut, dispatch } = setUp('B', [phone(9, { kind: 'gateway' })]);

    await expect(sut.update(OWNER, '9', { number: '+381641234567' })).rejects.toMatchObject({ code: 'not_found' });
    expect(dispatch.send).not.toHaveBeenCalled();
  });
});
