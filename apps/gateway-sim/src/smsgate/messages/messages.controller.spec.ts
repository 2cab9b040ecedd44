import { afterEach, describe, expect, it } from 'vitest';
import { SmsGatePhone } from '../../testing/smsgate-phone.js';
import { MessagesController } from './messages.controller.js';

const ISO_WITH_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/;

describe(MessagesController.name, () => {
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start({ GATEWAY_SIM_SMSGATE_HOLD: 'true', ...env });
    return phone;
  }

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('accepts the current shape, textMessage, with 202 and the message as the app writes it', async () => {
    const sut = await start();

    const answer = await sut.call('POST', '/message', { id: 'task-1', textMessage: { text: 'Hello' }, phoneNumbers: ['+381641234567'] });

    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      id: 'task-1',
      deviceId: 'GwSimSmsGateDevice001',
      state: 'Pending',
      isHashed: false,
      isEncrypted: false,
      textMessage: { text: 'Hello' },
      recipients: [{ phoneNumber: '+381641234567', state: 'Pending' }],
      states: { Pending: expect.stringMatching(ISO_WITH_MS) },
    });
  });

  it('accepts the older shape, a top-level message string, under /messages too, and echoes it as textMessage', async () => {
    const sut = await start();

    const answer = await sut.call('POST', '/messages', { message: 'Hello from an old client', phoneNumbers: ['+381641234567', '+381641234568'] });

    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id: expect.stringMatching(/^[\w-]{21}$/), textMessage: { text: 'Hello from an old client' }, recipients: [{ phoneNumber: '+381641234567' }, { phoneNumber: '+381641234568' }] });
  });

  it.each([
    ['neither text field', { phoneNumbers: ['+381641234567'] }, 'Must specify exactly one of: textMessage, dataMessage, or message'],
    ['both text fields', { message: 'a', textMessage: { text: 'b' }, phoneNumbers: ['+381641234567'] }, 'Cannot specify multiple message types simultaneously'],
    ['an empty message', { message: '', phoneNumbers: ['+381641234567'] }, 'Text message is empty'],
    ['an empty textMessage', { textMessage: { text: '' }, phoneNumbers: ['+381641234567'] }, 'Text message is empty'],
    ['no phone numbers', { textMessage: { text: 'hi' }, phoneNumbers: [] }, 'Empty phone numbers list'],
    ['SIM number 0', { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'], simNumber: 0 }, 'SIM number cannot be less than 1'],
    ['both ttl and validUntil', { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'], ttl: 60, validUntil: '2099-01-01T00:00:00.000Z' }, 'fields conflict: ttl and validUntil'],
    ['a validUntil in the past', { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'], validUntil: '2020-01-01T00:00:00.000+03:00' }, 'message already expired'],
    ['another device', { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'], deviceId: 'someone-else' }, 'Invalid device ID'],
    ['phone numbers that are not a list', { textMessage: { text: 'hi' }, phoneNumbers: '+381641234567' }, 'Failed to convert request body to class me.capcom.smsgateway.modules.localserver.domain.messages.PostMessageRequest'],
  ])('answers 400 with the app\'s message to %s, and queues nothing', async (_case, body, message) => {
    const sut = await start();

    const answer = await sut.call('POST', '/message', body);

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect((await sut.call('GET', '/message')).body).toEqual([]);
  });

  it('refuses a repeated id with 409 and keeps the first message', async () => {
    const sut = await start();
    await sut.call('POST', '/message', { id: 'same', textMessage: { text: 'first' }, phoneNumbers: ['+381641234567'] });

    const answer = await sut.call('POST', '/messages', { id: 'same', textMessage: { text: 'second' }, phoneNumbers: ['+381641234567'] });

    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: 'Message with the same ID already exists' });
    expect((await sut.call('GET', '/message/same')).body.textMessage).toEqual({ text: 'first' });
  });

  it('takes skipPhoneValidation=true, and refuses a value that is not a boolean', async () => {
    const sut = await start();
    const body = { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] };

    expect((await sut.call('POST', '/message?skipPhoneValidation=true', body)).status).toBe(202);
    expect(await sut.call('POST', '/message?skipPhoneValidation=yes', body)).toMatchObject({ status: 400, body: { message: "The string doesn't represent a boolean value: yes" } });
  });

  it('answers a message by id under both prefixes, and 404 with no body for an unknown one', async () => {
    const sut = await start();
    await sut.call('POST', '/message', { id: 'known', textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });

    expect((await sut.call('GET', '/message/known')).body).toMatchObject({ id: 'known', state: 'Pending', textMessage: { text: 'hi' } });
    expect((await sut.call('GET', '/messages/known')).status).toBe(200);
    const unknown = await sut.call('GET', '/message/unknown');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toBeUndefined();
  });

  it('lists messages newest first, without their text unless asked, with the total in X-Total-Count', async () => {
    const sut = await start();
    for (const id of ['m1', 'm2', 'm3']) await sut.call('POST', '/message', { id, textMessage: { text: id }, phoneNumbers: ['+381641234567'] });

    const page = await sut.call('GET', '/message?limit=2&offset=0');
    const withContent = await sut.call('GET', '/messages?limit=1&offset=2&includeContent=true');
    const failed = await sut.call('GET', '/message?state=Failed');

    expect(page.headers.get('x-total-count')).toBe('3');
    expect(page.body.map((message: any) => message.id)).toEqual(['m3', 'm2']);
    expect(page.body[0].textMessage).toBeUndefined();
    expect(withContent.body).toMatchObject([{ id: 'm1', textMessage: { text: 'm1' } }]);
    expect(failed.body).toEqual([]);
    expect(await sut.call('GET', '/message?state=Lost')).toMatchObject({ status: 400, body: { message: 'No enum constant me.capcom.smsgateway.domain.ProcessingState.Lost' } });
  });

  it('cancels a message still in the queue, and refuses once it left', async () => {
    const sut = await start();
    await sut.call('POST', '/message', { id: 'queued', textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });

    const cancelled = await sut.call('DELETE', '/message/queued');
    const again = await sut.call('DELETE', '/messages/queued');
    await sut.call('POST', '/sim/hold', { hold: false });
    await sut.call('POST', '/message', { id: 'gone', textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });
    await sut.messageIn('gone', 'Delivered');

    expect(cancelled).toMatchObject({ status: 200, body: { id: 'queued', state: 'Cancelled', recipients: [{ phoneNumber: '+381641234567', state: 'Cancelled' }] } });
    expect(cancelled.body.textMessage).toBeUndefined();
    expect(Object.keys(cancelled.body.states)).toEqual(['Pending', 'Cancelled']);
    expect(again.status).toBe(200);
    expect(await sut.call('DELETE', '/message/gone')).toMatchObject({ status: 400, body: { message: 'Message gone is not in Pending state' } });
    expect((await sut.call('DELETE', '/message/unknown')).status).toBe(404);
    expect((await sut.call('GET', '/sim/sends')).body.map((sms: any) => sms.messageId)).toEqual(['gone']);
  });

  it('writes dates in the phone\'s time zone, with milliseconds', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_UTC_OFFSET: '+03:00' });

    const answer = await sut.call('POST', '/message', { textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });

    expect(answer.body.states.Pending).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+03:00$/);
    expect(Math.abs(Date.parse(answer.body.states.Pending) - Date.now())).toBeLessThan(5_000);
  });
});
