import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmsGatePhone } from '../../testing/smsgate-phone.js';
import { StandInWebhookReceiver } from '../../testing/stand-in-webhook-receiver.js';
import { InboxController } from './inbox.controller.js';

const FROM = '+381641234567';
const OTHER = '+381641234568';

describe(InboxController.name, () => {
  let receiver: StandInWebhookReceiver;
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start(env);
    await phone.call('POST', '/webhooks', { id: 'replies', url: receiver.url, event: 'sms:received' });
    return phone;
  }

  function receive(sut: SmsGatePhone, sms: Record<string, unknown>) {
    return sut.call('POST', '/sim/incoming', sms, {});
  }

  beforeAll(async () => {
    receiver = await StandInWebhookReceiver.start();
  });

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
    receiver.calls.length = 0;
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('refuses a control request whose body is not JSON as the contract does: 400 invalid_json', async () => {
    const sut = await start();

    const response = await fetch(`${sut.url}/sim/incoming`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"from": ' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_json', detail: 'the body is not valid JSON' });
  });

  it('stores an incoming SMS and posts sms:received with the app\'s ids', async () => {
    const sut = await start();

    const incoming = await receive(sut, { from: FROM, message: 'Yes, see you', simNumber: 1, receivedAt: '2026-07-01T12:00:00.000Z' });
    const [call] = await receiver.waitForCalls(1);

    expect(incoming).toMatchObject({ status: 201, body: { inboxId: 'text:1081528160', messageId: '4076cf60', receivedAt: '2026-07-01T12:00:00.000Z' } });
    expect(call!.body).toEqual({
      id: expect.stringMatching(/^[\w-]{21}$/),
      webhookId: 'replies',
      event: 'sms:received',
      deviceId: 'GwSimSmsGateDevice001',
      payload: { message: 'Yes, see you', receivedAt: '2026-07-01T12:00:00.000Z', messageId: '4076cf60', sender: FROM, simNumber: 1, phoneNumber: FROM },
    });
    const inbox = await sut.call('GET', '/inbox');
    expect(inbox.body).toEqual([{ id: 'text:1081528160', type: 'SMS', sender: FROM, simNumber: 1, contentPreview: 'Yes, see you', createdAt: '2026-07-01T12:00:00.000Z', attachments: [] }]);
  });

  it('lists the inbox newest first, paged, between from and to, with the total in X-Total-Count', async () => {
    const sut = await start();
    for (const [hour, text] of [['09', 'first'], ['10', 'second'], ['11', 'third']]) await receive(sut, { from: FROM, message: text, receivedAt: `2026-07-01T${hour}:00:00.000Z` });

    const page = await sut.call('GET', '/inbox?limit=2&offset=0');
    const rest = await sut.call('GET', '/inbox?limit=2&offset=2');
    const window = await sut.call('GET', `/inbox?from=${encodeURIComponent('2026-07-01T12:30:00+03:00')}&to=2026-07-01T10:30:00Z`);

    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((sms: any) => sms.contentPreview)).toEqual(['third', 'second']);
    expect(rest.body.map((sms: any) => sms.contentPreview)).toEqual(['first']);
    expect(window.body.map((sms: any) => sms.contentPreview)).toEqual(['second']);
    expect(window.headers.get('x-total-count')).toBe('1');
  });

  it.each([
    ['limit=0', 'limit must be between 1 and 500'],
    ['offset=-1', 'offset must be >= 0'],
    ['from=yesterday', 'Invalid from datetime'],
    ['type=FAX', 'Invalid type'],
    ['from=2026-07-02T00:00:00Z&to=2026-07-01T00:00:00Z', 'Start date cannot be after end date'],
  ])('refuses %s with the app\'s message', async (query, message) => {
    const sut = await start();

    expect(await sut.call('GET', `/inbox?${query}`)).toMatchObject({ status: 400, body: { message } });
  });

  it('lets an export find an SMS the app missed, and emit it once', async () => {
    const sut = await start();
    await receive(sut, { from: FROM, message: 'seen', receivedAt: '2026-07-01T10:00:00.000Z' });
    await receive(sut, { from: OTHER, message: 'missed', receivedAt: '2026-07-01T11:00:00.000Z', missed: true });
    await receiver.waitForCalls(1);
    const beforeExport = await sut.call('GET', '/inbox');

    const exported = await sut.call('POST', '/messages/inbox/export', { since: '2026-07-01T00:00:00.000Z', until: '2026-07-01T23:59:59.999Z' });
    await receiver.waitForCalls(2);
    await sut.call('POST', '/message/inbox/export', { since: '2026-07-01T00:00:00.000Z', until: '2026-07-01T23:59:59.999Z' });
    await receive(sut, { from: FROM, message: 'marker' });
    await receiver.waitForCalls(3);

    expect(beforeExport.body.map((sms: any) => sms.contentPreview)).toEqual(['seen']);
    expect(exported.status).toBe(202);
    expect(exported.body).toBeUndefined();
    expect(receiver.payloadsOf('sms:received').map((payload) => payload.message)).toEqual(['seen', 'missed', 'marker']);
    expect((await sut.call('GET', '/inbox')).headers.get('x-total-count')).toBe('3');
  });

  it('re-emits every SMS of the period on export as apps before 1.65.2 did', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_LEGACY_EXPORT: 'true' });
    await receive(sut, { from: FROM, message: 'seen', receivedAt: '2026-07-01T10:00:00.000Z' });
    await receiver.waitForCalls(1);

    await sut.call('POST', '/messages/inbox/export', { since: '2026-07-01T00:00:00.000Z', until: '2026-07-01T23:59:59.999Z' });
    const calls = await receiver.waitForCalls(2);

    expect(calls[1]!.body.payload).toEqual(calls[0]!.body.payload);
    expect(calls[1]!.body.id).not.toBe(calls[0]!.body.id);
  });

  it('refreshes the inbox without webhooks unless triggerWebhooks is true', async () => {
    const sut = await start();
    await receive(sut, { from: FROM, message: 'missed one', receivedAt: '2026-07-01T10:00:00.000Z', missed: true });
    await receive(sut, { from: FROM, message: 'missed two', receivedAt: '2026-07-02T10:00:00.000Z', missed: true });

    const quiet = await sut.call('POST', '/inbox/refresh', { since: '2026-07-01T00:00:00.000Z', until: '2026-07-01T23:59:59.999Z' });
    const loud = await sut.call('POST', '/inbox/refresh', { since: '2026-07-02T00:00:00.000Z', until: '2026-07-02T23:59:59.999Z', triggerWebhooks: true });
    await receiver.waitForCalls(1);

    expect([quiet.status, loud.status]).toEqual([202, 202]);
    expect(receiver.payloadsOf('sms:received').map((payload) => payload.message)).toEqual(['missed two']);
    expect((await sut.call('GET', '/inbox')).body.map((sms: any) => sms.contentPreview)).toEqual(['missed two', 'missed one']);
  });

  it.each([
    ['/inbox/refresh', { until: '2026-07-01T00:00:00.000Z' }, 'since is required'],
    ['/inbox/refresh', { since: '2026-07-02T00:00:00.000Z', until: '2026-07-01T00:00:00.000Z' }, 'since must be before until'],
    ['/inbox/refresh', { since: 'soon', until: '2026-07-01T00:00:00.000Z' }, 'Invalid request body'],
    ['/messages/inbox/export', { since: '2026-07-01T00:00:00.000Z', until: '2026-07-02T00:00:00.000Z', messageTypes: ['DATA_SMS'] }, 'messageTypes contains unsupported values: DATA_SMS'],
  ])('refuses a bad period on %s with the app\'s message', async (path, body, message) => {
    const sut = await start();

    expect(await sut.call('POST', path, body)).toMatchObject({ status: 400, body: { message } });
  });

  it('answers a sent SMS with a reply from its recipient at reply rate 1', async () => {
    const sut = await start({ GATEWAY_SIM_REPLY_RATE: '1' });

    await sut.call('POST', '/message', { textMessage: { text: 'Are you coming?' }, phoneNumbers: [FROM] });
    await receiver.waitForCalls(1);

    expect(receiver.payloadsOf('sms:received')).toMatchObject([{ message: 'Re: Are you coming?', sender: FROM }]);
  });
});
