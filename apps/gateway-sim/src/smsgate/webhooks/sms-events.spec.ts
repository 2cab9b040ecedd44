import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmsGatePhone } from '../../testing/smsgate-phone.js';
import { StandInWebhookReceiver } from '../../testing/stand-in-webhook-receiver.js';
import { SEND_FAILURE } from '../messages/sms-sender.js';
import { signPayload } from './payload-signature.js';
import { SmsEvents } from './sms-events.js';

const TO = '+381641234567';
const ISO_WITH_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe(SmsEvents.name, () => {
  let receiver: StandInWebhookReceiver;
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}, events = ['sms:sent', 'sms:delivered', 'sms:failed']): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start(env);
    for (const event of events) await phone.call('POST', '/webhooks', { id: `hook-${event}`, url: receiver.url, event });
    return phone;
  }

  beforeAll(async () => {
    receiver = await StandInWebhookReceiver.start();
  });

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
    receiver.calls.length = 0;
    receiver.statuses.length = 0;
  });

  afterAll(async () => {
    await receiver.close();
  });

  it('posts sms:sent and sms:delivered for each recipient, in the app\'s body', async () => {
    const sut = await start();

    await sut.call('POST', '/message', { id: 'hello', textMessage: { text: 'Hello' }, phoneNumbers: [TO], simNumber: 1 });
    const calls = await receiver.waitForCalls(2);

    expect(calls.map((call) => call.body)).toEqual([
      { id: expect.stringMatching(/^[\w-]{21}$/), webhookId: 'hook-sms:sent', event: 'sms:sent', deviceId: 'GwSimSmsGateDevice001', payload: { partsCount: 1, sentAt: expect.stringMatching(ISO_WITH_MS), messageId: 'hello', recipient: TO, simNumber: 1, phoneNumber: TO } },
      { id: expect.stringMatching(/^[\w-]{21}$/), webhookId: 'hook-sms:delivered', event: 'sms:delivered', deviceId: 'GwSimSmsGateDevice001', payload: { deliveredAt: expect.stringMatching(ISO_WITH_MS), messageId: 'hello', recipient: TO, simNumber: 1, phoneNumber: TO } },
    ]);
    expect(calls[0]!.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(calls[0]!.headers['user-agent']).toBe('me.capcom.smsgateway/1.68.0');
    expect(calls[0]!.headers['x-signature']).toBeUndefined();
  });

  it('posts sms:failed with the reason, and counts the parts of a long text', async () => {
    const sut = await start({ GATEWAY_SIM_FAILURE_RATE: '1' });

    await sut.call('POST', '/message', { id: 'long', textMessage: { text: 'x'.repeat(161) }, phoneNumbers: [TO] });
    await receiver.waitForCalls(1);

    expect(receiver.payloadsOf('sms:failed')).toEqual([{ failedAt: expect.stringMatching(ISO_WITH_MS), reason: SEND_FAILURE, messageId: 'long', recipient: TO, phoneNumber: TO }]);
  });

  it('signs each body with the signing key, verifiably by recomputing the HMAC of body and timestamp', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_SIGNING_KEY: 'shared-secret' });

    await sut.call('POST', '/message', { textMessage: { text: 'Signed' }, phoneNumbers: [TO] });
    const [call] = await receiver.waitForCalls(1);

    const timestamp = call!.headers['x-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(call!.headers['x-signature']).toBe(signPayload('shared-secret', call!.rawBody, timestamp));
    expect(call!.headers['x-signature']).not.toBe(signPayload('another-secret', call!.rawBody, timestamp));
  });

  it('retries a delivery the receiver refused, the same event signed afresh each time', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_WEBHOOK_RETRY_MS: '10', GATEWAY_SIM_SMSGATE_SIGNING_KEY: 'k' }, ['sms:sent']);
    receiver.statuses.push(500, 503);

    await sut.call('POST', '/message', { textMessage: { text: 'Hello' }, phoneNumbers: [TO], withDeliveryReport: false });
    const calls = await receiver.waitForCalls(3);

    expect(new Set(calls.map((call) => call.rawBody)).size).toBe(1);
    expect(calls.every((call) => call.headers['x-signature'] === signPayload('k', call.rawBody, call.headers['x-timestamp'] as string))).toBe(true);
  });

  it('gives up on a delivery after its retries', async () => {
    // The next message reaches the receiver well after a fourth attempt (30 ms after the third) would have.
    const sut = await start({ GATEWAY_SIM_SMSGATE_WEBHOOK_RETRIES: '2', GATEWAY_SIM_SMSGATE_WEBHOOK_RETRY_MS: '10', GATEWAY_SIM_SMSGATE_PENDING_MS: '150' }, ['sms:sent']);
    receiver.statuses.push(500, 500, 500);

    await sut.call('POST', '/message', { id: 'dropped', textMessage: { text: 'Hello' }, phoneNumbers: [TO], withDeliveryReport: false });
    await receiver.waitForCalls(3);
    await sut.call('POST', '/message', { id: 'next', textMessage: { text: 'Hello' }, phoneNumbers: [TO], withDeliveryReport: false });
    await receiver.waitForCalls(4);

    expect(receiver.calls.map((call) => call.body.payload.messageId)).toEqual(['dropped', 'dropped', 'dropped', 'next']);
  });

  it('posts sms:cancelled for each recipient of a cancelled message', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_HOLD: 'true' }, ['sms:cancelled']);

    await sut.call('POST', '/message', { id: 'recalled', textMessage: { text: 'Hello' }, phoneNumbers: [TO, '+381641234568'] });
    await sut.call('DELETE', '/message/recalled');
    await receiver.waitForCalls(2);

    expect(receiver.payloadsOf('sms:cancelled')).toEqual([
      { cancelledAt: expect.stringMatching(ISO_WITH_MS), messageId: 'recalled', recipient: TO, phoneNumber: TO },
      { cancelledAt: expect.stringMatching(ISO_WITH_MS), messageId: 'recalled', recipient: '+381641234568', phoneNumber: '+381641234568' },
    ]);
  });

  it('only posts to the webhooks subscribed to the event', async () => {
    const sut = await start({}, ['sms:delivered']);

    await sut.call('POST', '/message', { id: 'one', textMessage: { text: 'Hello' }, phoneNumbers: [TO] });
    await sut.messageIn('one', 'Delivered');
    await receiver.waitForCalls(1);

    expect(receiver.calls.map((call) => call.body.event)).toEqual(['sms:delivered']);
  });
});
