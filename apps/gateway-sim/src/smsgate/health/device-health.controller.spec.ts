import { afterEach, describe, expect, it } from 'vitest';
import { SmsGatePhone } from '../../testing/smsgate-phone.js';
import { DeviceHealthController } from './device-health.controller.js';

describe(DeviceHealthController.name, () => {
  let phone: SmsGatePhone | undefined;

  async function start(env: Record<string, string> = {}): Promise<SmsGatePhone> {
    phone = await SmsGatePhone.start(env);
    return phone;
  }

  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('answers without credentials, with the app\'s checks', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_BATTERY_LEVEL: '77', GATEWAY_SIM_SMSGATE_BATTERY_CHARGING: 'false' });

    const answer = await sut.call('GET', '/health', undefined, {});

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      version: '1.68.0',
      releaseId: 1490,
      status: 'pass',
      checks: {
        'messages:failed': { status: 'pass', observedValue: 0, observedUnit: 'messages', description: 'Failed messages for last hour' },
        'connection:status': { status: 'pass', observedValue: 1, observedUnit: 'boolean', description: 'Internet connection status' },
        'connection:transport': { status: 'pass', observedValue: 4, observedUnit: 'flags', description: 'Network transport type' },
        'connection:cellular': { status: 'pass', observedValue: 4, observedUnit: 'index', description: 'Cellular network type' },
        'battery:level': { status: 'pass', observedValue: 77, observedUnit: 'percent', description: 'Battery level in percent' },
        'battery:charging': { status: 'pass', observedValue: 0, observedUnit: 'flags', description: 'Is the phone charging?' },
      },
    });
  });

  it('warns on a low battery, still with 200', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_BATTERY_LEVEL: '20' });

    expect(await sut.call('GET', '/health')).toMatchObject({ status: 200, body: { status: 'warn', checks: { 'battery:level': { status: 'warn', observedValue: 20 } } } });
  });

  it('fails with 500 when the phone is offline', async () => {
    const sut = await start({ GATEWAY_SIM_SMSGATE_CONNECTED: 'false' });

    expect(await sut.call('GET', '/health')).toMatchObject({ status: 500, body: { status: 'fail', checks: { 'connection:status': { status: 'fail', observedValue: 0 } } } });
  });

  it('fails when every message of the last hour failed, and only warns once one went out', async () => {
    const rolls = [0.05, 0.5];
    phone = await SmsGatePhone.start({ GATEWAY_SIM_FAILURE_RATE: '0.1' }, { random: () => rolls.shift() ?? 0.5 });
    await phone.call('POST', '/message', { id: 'lost', textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });
    await phone.messageIn('lost', 'Failed');

    const failing = await phone.call('GET', '/health');
    await phone.call('POST', '/message', { id: 'out', textMessage: { text: 'hi' }, phoneNumbers: ['+381641234567'] });
    await phone.messageIn('out', 'Delivered');
    const warning = await phone.call('GET', '/health');

    expect(failing).toMatchObject({ status: 500, body: { status: 'fail', checks: { 'messages:failed': { status: 'fail', observedValue: 1 } } } });
    expect(warning).toMatchObject({ status: 200, body: { status: 'warn', checks: { 'messages:failed': { status: 'warn', observedValue: 1 } } } });
  });
});
