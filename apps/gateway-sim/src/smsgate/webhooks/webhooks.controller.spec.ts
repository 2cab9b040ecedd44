import { afterEach, describe, expect, it } from 'vitest';
import { SmsGatePhone } from '../../testing/smsgate-phone.js';
import { WebhooksController } from './webhooks.controller.js';

describe(WebhooksController.name, () => {
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start(env);
    return phone;
  }

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('registers a webhook with 201 and its DTO, giving it an id when it has none', async () => {
    const sut = await start();

    const answer = await sut.call('POST', '/webhooks', { url: 'https://smsq.example/hooks/smsgate', event: 'sms:received' });

    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.stringMatching(/^[\w-]{21}$/), url: 'https://smsq.example/hooks/smsgate', event: 'sms:received', source: 'Local' });
  });

  it('replaces a webhook with the same id, lists them under both prefixes, and deletes with 204', async () => {
    const sut = await start();
    await sut.call('POST', '/webhooks', { id: 'sent', url: 'https://old.example/hook', event: 'sms:sent' });
    await sut.call('POST', '/webhook', { id: 'sent', url: 'http://127.0.0.1:3000/hook', event: 'sms:sent' });
    await sut.call('POST', '/webhooks', { id: 'failed', url: 'https://smsq.example/hook', event: 'sms:failed' });

    const listed = await sut.call('GET', '/webhook');
    const deleted = await sut.call('DELETE', '/webhooks/sent');
    const unknown = await sut.call('DELETE', '/webhook/never-was');

    expect(listed.body).toEqual([
      { id: 'sent', url: 'http://127.0.0.1:3000/hook', event: 'sms:sent', source: 'Local' },
      { id: 'failed', url: 'https://smsq.example/hook', event: 'sms:failed', source: 'Local' },
    ]);
    expect(deleted.status).toBe(204);
    expect(unknown.status).toBe(204);
    expect((await sut.call('GET', '/webhooks')).body.map((webhook: any) => webhook.id)).toEqual(['failed']);
  });

  it.each([
    ['http to another host', { url: 'http://smsq.example/hook', event: 'sms:sent' }, 'url must start with https:// or http://127.0.0.1'],
    ['http to localhost by name', { url: 'http://localhost:3000/hook', event: 'sms:sent' }, 'url must start with https:// or http://127.0.0.1'],
    ['no url', { event: 'sms:sent' }, 'url must start with https:// or http://127.0.0.1'],
    ['an unknown event', { url: 'https://smsq.example/hook', event: 'sms:lost' }, 'Unsupported event'],
    ['another device', { url: 'https://smsq.example/hook', event: 'sms:sent', deviceId: 'other' }, 'Device ID mismatch'],
  ])('refuses %s with 400 and the app\'s message', async (_case, body, message) => {
    const sut = await start();

    const answer = await sut.call('POST', '/webhooks', body);

    expect(answer).toMatchObject({ status: 400, body: { message } });
    expect((await sut.call('GET', '/webhooks')).body).toEqual([]);
  });

  it('takes any http URL in the insecure build', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_INSECURE: 'true' });

    expect((await sut.call('POST', '/webhooks', { url: 'http://smsq.internal:3000/hook', event: 'sms:delivered' })).status).toBe(201);
  });
});
