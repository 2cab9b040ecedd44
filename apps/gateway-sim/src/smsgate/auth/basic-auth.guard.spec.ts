import { afterEach, describe, expect, it } from 'vitest';
import { SMSGATE_AUTH, SmsGatePhone } from '../../testing/smsgate-phone.js';
import { BasicAuthGuard } from './basic-auth.guard.js';

const CHALLENGE = 'Basic realm="Access to SMS Gateway", charset=UTF-8';

function basic(credentials: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}

describe(BasicAuthGuard.name, () => {
  let phone: SmsGatePhone | undefined;

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it.each([
    ['no credentials', {}],
    ['a wrong password', basic('sms:guess')],
    ['a wrong username', basic('admin:smsgate-sim-password')],
    ['a bearer token', { authorization: 'Bearer abc' }],
  ])('answers 401 with the Basic challenge and no body to %s, on every API route', async (_case, headers) => {
    phone = await SmsGatePhone.start();

    for (const [method, path] of [['GET', '/message'], ['POST', '/messages'], ['GET', '/message/x'], ['GET', '/webhooks'], ['DELETE', '/webhook/x'], ['GET', '/inbox'], ['POST', '/inbox/refresh'], ['POST', '/messages/inbox/export']] as const) {
      const answer = await phone.call(method, path, method === 'POST' ? {} : undefined, headers);
      expect({ path, status: answer.status, challenge: answer.headers.get('www-authenticate'), body: answer.body }).toEqual({ path, status: 401, challenge: CHALLENGE, body: undefined });
    }
  });

  it('checks credentials before it reads the body', async () => {
    phone = await SmsGatePhone.start();

    const response = await fetch(`${phone.url}/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    const withCredentials = await fetch(`${phone.url}/message`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: SMSGATE_AUTH }, body: '{not json' });

    expect(response.status).toBe(401);
    expect(withCredentials.status).toBe(400);
    expect(await withCredentials.json()).toEqual({ message: expect.stringContaining('Failed to convert request body') });
  });

  it('takes the configured credentials, and leaves /health and the /sim controls open', async () => {
    phone = await SmsGatePhone.start({ GATEWAY_SIM_SMSGATE_USER: 'gateway', GATEWAY_SIM_SMSGATE_PASSWORD: 'p:with:colons' });

    expect((await phone.call('GET', '/message', undefined, basic('gateway:p:with:colons'))).status).toBe(200);
    expect((await phone.call('GET', '/message', undefined, { authorization: SMSGATE_AUTH })).status).toBe(401);
    expect((await phone.call('GET', '/health', undefined, {})).status).toBe(200);
    expect((await phone.call('GET', '/sim/sends', undefined, {})).status).toBe(200);
  });
});
