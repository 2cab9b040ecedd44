import { afterEach, describe, expect, it } from 'vitest';
import { SMSGATE_AUTH, SmsGatePhone } from '../../testing/smsgate-phone.js';
import { PhoneHangInterceptor } from './phone-hang.js';

/** A request that is still unanswered after `ms`: rejected by its own time-out. */
async function unansweredWithin(phone: SmsGatePhone, method: string, path: string, body: unknown, ms: number): Promise<string> {
  const response = fetch(`${phone.url}${path}`, {
    method,
    headers: { authorization: SMSGATE_AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(ms),
  });
  return response.then(
    (answer) => `answered ${answer.status}`,
    (error: Error) => error.name,
  );
}

describe(PhoneHangInterceptor.name, () => {
  let phone: SmsGatePhone | undefined;

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('a hung phone takes the SMS and sends it, answering nothing (not even a repeat\'s 409); the test routes still answer', async () => {
    const sut = (phone = await SmsGatePhone.start());
    expect((await sut.call('POST', '/sim/hang', { hang: true })).body).toEqual({ hang: true });
    const sms = { id: 'smsq-7-20260701120000', textMessage: { text: 'Hello' }, phoneNumbers: ['+381641234567'] };

    // A second each: the first must reach the phone within its window, which a busy machine can take a few hundred ms to do.
    expect(await unansweredWithin(sut, 'POST', '/message', sms, 1_000)).toBe('TimeoutError');
    expect(await unansweredWithin(sut, 'POST', '/message', sms, 1_000)).toBe('TimeoutError');
    expect(await unansweredWithin(sut, 'GET', `/message/${sms.id}`, undefined, 1_000)).toBe('TimeoutError');
    expect((await sut.call('GET', '/sim/sends/counts')).body).toEqual({ messages: { [sms.id]: 1 }, tasks: { '7': 1 } });

    expect((await sut.call('POST', '/sim/hang', { hang: false })).body).toEqual({ hang: false });
    expect(await sut.messageIn(sms.id, 'Delivered')).toMatchObject({ id: sms.id, state: 'Delivered' });
    expect((await sut.call('POST', '/message', sms)).status).toBe(409);
  });

  it('starts hung with GATEWAY_SIM_SMSGATE_HANG, /health included, and answers once told to', async () => {
    const sut = (phone = await SmsGatePhone.start({ GATEWAY_SIM_SMSGATE_HANG: 'true' }));

    expect(await unansweredWithin(sut, 'GET', '/health', undefined, 300)).toBe('TimeoutError');
    expect((await sut.call('GET', '/healthz', undefined, {})).status).toBe(200);

    await sut.call('POST', '/sim/hang', { hang: false });
    expect((await sut.call('GET', '/health', undefined, {})).status).toBe(200);
  });

  it('refuses a hang that is not a boolean', async () => {
    const sut = (phone = await SmsGatePhone.start());

    expect((await sut.call('POST', '/sim/hang', { hang: 'yes' })).status).toBe(400);
  });
});
