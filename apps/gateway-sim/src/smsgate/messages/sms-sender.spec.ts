import { afterEach, describe, expect, it } from 'vitest';
import { eventually, SmsGatePhone } from '../../testing/smsgate-phone.js';
import { SEND_FAILURE_TEXTS } from './send-failure-kinds.js';
import { LIMIT_EXCEEDED, SEND_FAILURE, SmsSender, TTL_EXPIRED } from './sms-sender.js';

const TO = '+381641234567';

describe(SmsSender.name, () => {
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}, options: { random?: () => number; now?: () => number } = {}): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start(env, options);
    return phone;
  }

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('takes a message from Pending through Processed and Sent to Delivered, each after its delay', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_PENDING_MS: '150', GATEWAY_SIM_SMSGATE_SENT_MS: '150', GATEWAY_SIM_SMSGATE_DELIVERED_MS: '150' });

    const queued = await sut.call('POST', '/message', { id: 'life', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    const delivered = await sut.messageIn('life', 'Delivered');

    // The states as the phone recorded them: a poll of 150 ms states could miss one on a busy machine.
    expect(queued.body.state).toBe('Pending');
    expect(delivered.recipients).toEqual([{ phoneNumber: TO, state: 'Delivered' }]);
    const at = (state: string) => Date.parse(delivered.states[state]);
    expect(Object.keys(delivered.states)).toEqual(['Pending', 'Processed', 'Sent', 'Delivered']);
    expect(at('Processed') - at('Pending')).toBeGreaterThanOrEqual(140);
    expect(at('Sent') - at('Processed')).toBeGreaterThanOrEqual(140);
    expect(at('Delivered') - at('Sent')).toBeGreaterThanOrEqual(140);
  });

  it('stops at Sent when no delivery report is asked for', async () => {
    const sut = await start();

    await sut.call('POST', '/message', { id: 'no-report', textMessage: { text: 'Hello' }, phoneNumbers: [TO], withDeliveryReport: false });
    const sent = await sut.messageIn('no-report', 'Sent');
    // Other messages get their delivery report within this time; this one never does.
    await sut.call('POST', '/message', { id: 'with-report', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    await sut.messageIn('with-report', 'Delivered');

    expect(Object.keys(sent.states)).toEqual(['Pending', 'Processed', 'Sent']);
    expect((await sut.call('GET', '/message/no-report')).body.state).toBe('Sent');
  });

  it('fails a send at the failure rate with the radio\'s error, and does not count it as sent', async () => {
    const sut = await start({ GATEWAY_SIM_FAILURE_RATE: '1' });

    await sut.call('POST', '/message', { id: 'lost', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    const failed = await sut.messageIn('lost', 'Failed');

    expect(failed.recipients).toEqual([{ phoneNumber: TO, state: 'Failed', error: SEND_FAILURE }]);
    expect(Object.keys(failed.states)).toEqual(['Pending', 'Processed', 'Failed']);
    expect((await sut.call('GET', '/sim/sends', undefined, {})).body).toEqual([]);
  });

  it.each([
    ['no-service', 'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)'],
    ['radio-off', 'Send result: RESULT_ERROR_RADIO_OFF (Failed because radio was explicitly turned off)'],
    ['null-pdu', 'Send result: RESULT_ERROR_NULL_PDU (Failed because no PDU provided)'],
    ['limit-exceeded', 'Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)'],
    ['generic-failure', SEND_FAILURE],
  ] as const)('fails a send as GATEWAY_SIM_SMSGATE_FAILURE=%s says, with the app\'s words, and sends nothing', async (kind, error) => {
    const sut = await start({ GATEWAY_SIM_FAILURE_RATE: '1', GATEWAY_SIM_SMSGATE_FAILURE: kind });

    await sut.call('POST', '/message', { id: 'smsq-5-20260701120000', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    const failed = await sut.messageIn('smsq-5-20260701120000', 'Failed');

    expect(SEND_FAILURE_TEXTS[kind]).toBe(error);
    expect(failed.recipients).toEqual([{ phoneNumber: TO, state: 'Failed', error }]);
    expect(Object.keys(failed.states)).toEqual(['Pending', 'Processed', 'Failed']);
    expect((await sut.call('GET', '/sim/sends/counts', undefined, {})).body).toEqual({ messages: {}, tasks: {} });
  });

  it('fails a message as its queue\'s TTL expiring at GATEWAY_SIM_SMSGATE_FAILURE=ttl-expired, never handing it to the radio', async () => {
    const sut = await start({ GATEWAY_SIM_FAILURE_RATE: '1', GATEWAY_SIM_SMSGATE_FAILURE: 'ttl-expired' });

    await sut.call('POST', '/message', { id: 'expired', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    const failed = await sut.messageIn('expired', 'Failed');

    expect(failed.recipients).toEqual([{ phoneNumber: TO, state: 'Failed', error: TTL_EXPIRED }]);
    expect(Object.keys(failed.states)).toEqual(['Pending', 'Failed']);
    expect((await sut.call('GET', '/sim/sends')).body).toEqual([]);
  });

  it('changes how sends fail while it runs (POST /sim/failure), and counts what it sent per message and per smsq task', async () => {
    const sut = await start();
    expect((await sut.call('GET', '/sim/failure', undefined, {})).body).toEqual({ rate: 0, kind: 'generic-failure' });

    await sut.call('POST', '/message', { id: 'smsq-41-20260701120000', textMessage: { text: 'first' }, phoneNumbers: [TO] });
    await sut.messageIn('smsq-41-20260701120000', 'Delivered');
    const lost = await sut.call('POST', '/sim/failure', { rate: 1, kind: 'no-service' }, {});
    await sut.call('POST', '/message', { id: 'smsq-42-20260701120000', textMessage: { text: 'second' }, phoneNumbers: [TO] });
    const failed = await sut.messageIn('smsq-42-20260701120000', 'Failed');
    await sut.call('POST', '/sim/failure', { rate: 0 }, {});
    await sut.call('POST', '/message', { id: 'smsq-43', textMessage: { text: 'third' }, phoneNumbers: [TO, '+381641234568'] });
    await sut.call('POST', '/message', { id: 'not-from-smsq', textMessage: { text: 'fourth' }, phoneNumbers: [TO] });
    await sut.messageIn('not-from-smsq', 'Delivered');

    expect(lost).toMatchObject({ status: 200, body: { rate: 1, kind: 'no-service' } });
    expect(failed.recipients[0].error).toBe(SEND_FAILURE_TEXTS['no-service']);
    expect((await sut.call('GET', '/sim/sends/counts', undefined, {})).body).toEqual({
      messages: { 'smsq-41-20260701120000': 1, 'smsq-43': 2, 'not-from-smsq': 1 },
      tasks: { '41': 1, '43': 2 },
    });
  });

  it('refuses every send past GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER with LIMIT_EXCEEDED, and records none of them as sent', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER: '2' });
    expect((await sut.call('GET', '/sim/limit', undefined, {})).body).toEqual({ after: 2, left: 2 });

    // Two numbers in one message use up the limit; the next message is refused, never reaching the radio.
    await sut.call('POST', '/message', { id: 'smsq-1-20260701120000', textMessage: { text: 'first' }, phoneNumbers: [TO, '+381641234568'] });
    await sut.messageIn('smsq-1-20260701120000', 'Delivered');
    await sut.call('POST', '/message', { id: 'smsq-2-20260701120000', textMessage: { text: 'second' }, phoneNumbers: [TO] });
    const refused = await sut.messageIn('smsq-2-20260701120000', 'Failed');
    await sut.call('POST', '/message', { id: 'smsq-3-20260701120000', textMessage: { text: 'third' }, phoneNumbers: [TO] });
    await sut.messageIn('smsq-3-20260701120000', 'Failed');

    expect(refused.recipients).toEqual([{ phoneNumber: TO, state: 'Failed', error: LIMIT_EXCEEDED }]);
    expect(Object.keys(refused.states)).toEqual(['Pending', 'Processed', 'Failed']);
    expect((await sut.call('GET', '/sim/sends/counts', undefined, {})).body).toEqual({ messages: { 'smsq-1-20260701120000': 2 }, tasks: { '1': 2 } });
    expect((await sut.call('GET', '/sim/limit', undefined, {})).body).toEqual({ after: 2, left: 0 });
  });

  it('switches the limit while it runs (POST /sim/limit): a number more SMS from now, 0 at once, null lifted', async () => {
    const sut = await start();
    expect((await sut.call('GET', '/sim/limit', undefined, {})).body).toEqual({ after: null, left: null });
    await sut.call('POST', '/message', { id: 'before', textMessage: { text: 'before' }, phoneNumbers: [TO] });
    await sut.messageIn('before', 'Delivered');

    const set = await sut.limitSends(1);
    await sut.call('POST', '/message', { id: 'last', textMessage: { text: 'last' }, phoneNumbers: [TO] });
    await sut.messageIn('last', 'Delivered');
    await sut.call('POST', '/message', { id: 'refused', textMessage: { text: 'refused' }, phoneNumbers: [TO] });
    const refused = await sut.messageIn('refused', 'Failed');
    const lifted = await sut.limitSends(null);
    await sut.call('POST', '/message', { id: 'after', textMessage: { text: 'after' }, phoneNumbers: [TO] });
    await sut.messageIn('after', 'Delivered');
    const atOnce = await sut.call('POST', '/sim/limit', { after: 0 }, {});
    await sut.call('POST', '/message', { id: 'none', textMessage: { text: 'none' }, phoneNumbers: [TO] });
    await sut.messageIn('none', 'Failed');

    expect(set).toMatchObject({ status: 200, body: { after: 1, left: 1 } });
    expect(refused.recipients[0].error).toBe(LIMIT_EXCEEDED);
    expect(lifted.body).toEqual({ after: null, left: null });
    expect(atOnce.body).toEqual({ after: 0, left: 0 });
    expect((await sut.call('GET', '/sim/sends')).body.map((sms: any) => sms.messageId)).toEqual(['before', 'last', 'after']);
  });

  it('refuses a limit it cannot keep with 400', async () => {
    const sut = await start();

    for (const body of [{}, { after: -1 }, { after: 1.5 }, { after: 'soon' }]) expect((await sut.call('POST', '/sim/limit', body, {})).status).toBe(400);
    expect((await sut.call('GET', '/sim/limit', undefined, {})).body).toEqual({ after: null, left: null });
  });

  it('refuses a failure plan it cannot follow with 400', async () => {
    const sut = await start();

    expect((await sut.call('POST', '/sim/failure', { rate: 2 }, {})).status).toBe(400);
    expect((await sut.call('POST', '/sim/failure', { kind: 'blocked' }, {})).status).toBe(400);
    expect((await sut.call('GET', '/sim/failure', undefined, {})).body).toEqual({ rate: 0, kind: 'generic-failure' });
  });

  it('fails only the recipients its random source picks', async () => {
    const rolls = [0.05, 0.5];
    const sut = await start({ GATEWAY_SIM_FAILURE_RATE: '0.1' }, { random: () => rolls.shift() ?? 0.5 });

    await sut.call('POST', '/message', { id: 'half', textMessage: { text: 'Hello' }, phoneNumbers: [TO, '+381641234568'] });
    const done = await eventually(async () => (await sut.call('GET', '/message/half')).body, (message) => message.recipients.every((recipient: any) => ['Failed', 'Delivered'].includes(recipient.state)));

    expect(done.state).toBe('Sent');
    expect(done.recipients).toEqual([
      { phoneNumber: TO, state: 'Failed', error: SEND_FAILURE },
      { phoneNumber: '+381641234568', state: 'Delivered' },
    ]);
    expect((await sut.call('GET', '/sim/sends')).body).toMatchObject([{ messageId: 'half', phoneNumbers: ['+381641234568'] }]);
  });

  it('fails a message whose TTL passed while it waited, and never sends it', async () => {
    let now = Date.parse('2026-07-01T12:00:00.000Z');
    const sut = await start({ GATEWAY_SIM_SMSGATE_HOLD: 'true' }, { now: () => now });

    await sut.call('POST', '/message', { id: 'stale', textMessage: { text: 'Your code is 1234' }, phoneNumbers: [TO], ttl: 60 });
    await sut.call('POST', '/message', { id: 'fresh', textMessage: { text: 'Still good' }, phoneNumbers: [TO], validUntil: '2026-07-01T13:00:00.000Z' });
    now += 61_000;
    await sut.call('POST', '/sim/hold', { hold: false });
    const stale = await sut.messageIn('stale', 'Failed');
    await sut.messageIn('fresh', 'Delivered');

    expect(stale.recipients).toEqual([{ phoneNumber: TO, state: 'Failed', error: TTL_EXPIRED }]);
    expect(stale.states).toEqual({ Pending: '2026-07-01T12:00:00.000Z', Failed: '2026-07-01T12:01:01.000Z' });
    expect((await sut.call('GET', '/sim/sends')).body).toEqual([{ messageId: 'fresh', phoneNumbers: [TO], text: 'Still good', simNumber: null, sentAt: '2026-07-01T12:01:01.000Z' }]);
  });

  it('keeps everything Pending while held, then sends one message at a time, oldest first', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_HOLD: 'true', GATEWAY_SIM_SMSGATE_PENDING_MS: '500' });

    for (const id of ['first', 'second', 'third']) await sut.call('POST', '/message', { id, textMessage: { text: id }, phoneNumbers: [TO], simNumber: 1 });
    const whileHeld = await sut.call('GET', '/message?state=Pending');
    await sut.call('POST', '/sim/hold', { hold: false });
    await eventually(async () => (await sut.call('GET', '/message/first')).body, (message) => message.state !== 'Pending');
    const afterOne = await sut.call('GET', '/message?state=Pending');
    await sut.messageIn('third', 'Delivered');

    expect(whileHeld.headers.get('x-total-count')).toBe('3');
    expect(afterOne.body.map((message: any) => message.id)).toEqual(['third', 'second']);
    const sends = (await sut.call('GET', '/sim/sends')).body;
    expect(sends.map((sms: any) => sms.messageId)).toEqual(['first', 'second', 'third']);
    expect(sends[0]).toEqual({ messageId: 'first', phoneNumbers: [TO], text: 'first', simNumber: 1, sentAt: expect.any(String) });
  });

  it('sends the newest first in LIFO order, and a higher priority before either', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_HOLD: 'true', GATEWAY_SIM_SMSGATE_PROCESSING_ORDER: 'LIFO' });

    for (const id of ['a', 'b', 'c']) await sut.call('POST', '/message', { id, textMessage: { text: id }, phoneNumbers: [TO] });
    await sut.call('POST', '/message', { id: 'urgent', textMessage: { text: 'urgent' }, phoneNumbers: [TO], priority: 100 });
    await sut.call('POST', '/sim/hold', { hold: false });
    await eventually(async () => (await sut.call('GET', '/sim/sends')).body, (sends) => sends.length === 4);

    expect((await sut.call('GET', '/sim/sends')).body.map((sms: any) => sms.messageId)).toEqual(['urgent', 'c', 'b', 'a']);
  });

  it('fails a recipient whose number the app would refuse, unless validation is skipped', async () => {
    const sut = await start();

    await sut.call('POST', '/message', { id: 'checked', textMessage: { text: 'hi' }, phoneNumbers: ['12'] });
    await sut.call('POST', '/message?skipPhoneValidation=true', { id: 'unchecked', textMessage: { text: 'hi' }, phoneNumbers: ['*100#'] });

    expect((await sut.messageIn('checked', 'Failed')).recipients).toEqual([{ phoneNumber: '12', state: 'Failed', error: 'sendSMS: Invalid phone number' }]);
    expect((await sut.messageIn('unchecked', 'Delivered')).recipients).toEqual([{ phoneNumber: '*100#', state: 'Delivered' }]);
  });

  it('fails a message for a SIM the phone does not have', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_SIM_COUNT: '1' });

    await sut.call('POST', '/message', { id: 'sim2', textMessage: { text: 'hi' }, phoneNumbers: [TO], simNumber: 2 });

    expect((await sut.messageIn('sim2', 'Failed')).recipients[0].error).toBe("Can't send message: SIM 2 not found");
    expect((await sut.call('GET', '/sim/sends')).body).toEqual([]);
  });

  it('sends a message scheduled for later only when its time comes', async () => {
    const sut = await start();
    // Far enough ahead that the look right after the create is still early on a busy machine.
    const scheduleAt = new Date(Date.now() + 3_000).toISOString();

    await sut.call('POST', '/message', { id: 'later', textMessage: { text: 'hi' }, phoneNumbers: [TO], scheduleAt });
    const early = (await sut.call('GET', '/message/later')).body;
    await sut.messageIn('later', 'Delivered', 10_000);

    expect(early.state).toBe('Pending');
    expect(Date.parse((await sut.call('GET', '/message/later')).body.states.Processed)).toBeGreaterThanOrEqual(Date.parse(scheduleAt));
  });
});
