import { loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { readGatewaySimConfig } from '../config/gateway-sim-config.js';
import { readSmsGateConfig } from './smsgate-config.js';

describe(readSmsGateConfig.name, () => {
  it('is read only in smsgate mode, with working defaults', () => {
    expect(loadConfig(readGatewaySimConfig, {}).smsgate).toBeUndefined();

    const config = loadConfig(readGatewaySimConfig, { GATEWAY_SIM_MODE: 'smsgate' });

    expect(config.mode).toBe('smsgate');
    expect(config.smsgate).toEqual({
      username: 'sms',
      password: 'smsgate-sim-password',
      deviceId: 'GwSimSmsGateDevice001',
      pendingMs: 200,
      sentMs: 200,
      deliveredMs: 300,
      hold: false,
      hang: false,
      processingOrder: 'FIFO',
      failureKind: 'generic-failure',
      limitExceededAfter: null,
      simCount: 2,
      insecureWebhooks: false,
      webhookRetries: 3,
      webhookRetryMs: 500,
      legacyExport: false,
      batteryLevel: 90,
      batteryCharging: true,
      connected: true,
      utcOffsetMinutes: 0,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(readGatewaySimConfig, {
      GATEWAY_SIM_MODE: 'smsgate',
      GATEWAY_SIM_SMSGATE_USER: 'u',
      GATEWAY_SIM_SMSGATE_PASSWORD: 'p',
      GATEWAY_SIM_SMSGATE_DEVICE_ID: 'phone-1',
      GATEWAY_SIM_SMSGATE_PENDING_MS: '1',
      GATEWAY_SIM_SMSGATE_SENT_MS: '2',
      GATEWAY_SIM_SMSGATE_DELIVERED_MS: '3',
      GATEWAY_SIM_SMSGATE_HOLD: 'true',
      GATEWAY_SIM_SMSGATE_HANG: 'true',
      GATEWAY_SIM_SMSGATE_PROCESSING_ORDER: 'lifo',
      GATEWAY_SIM_SMSGATE_SIM_COUNT: '1',
      GATEWAY_SIM_SMSGATE_FAILURE: 'no-service',
      GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER: '0',
      GATEWAY_SIM_SMSGATE_INSECURE: 'true',
      GATEWAY_SIM_SMSGATE_SIGNING_KEY: 'key',
      GATEWAY_SIM_SMSGATE_WEBHOOK_RETRIES: '0',
      GATEWAY_SIM_SMSGATE_WEBHOOK_RETRY_MS: '10',
      GATEWAY_SIM_SMSGATE_LEGACY_EXPORT: 'true',
      GATEWAY_SIM_SMSGATE_BATTERY_LEVEL: '5',
      GATEWAY_SIM_SMSGATE_BATTERY_CHARGING: 'false',
      GATEWAY_SIM_SMSGATE_CONNECTED: 'false',
      GATEWAY_SIM_SMSGATE_UTC_OFFSET: '-05:30',
    });

    expect(config.smsgate).toEqual({
      username: 'u', password: 'p', deviceId: 'phone-1', pendingMs: 1, sentMs: 2, deliveredMs: 3, hold: true, hang: true, processingOrder: 'LIFO', failureKind: 'no-service', limitExceededAfter: 0, simCount: 1,
      insecureWebhooks: true, signingKey: 'key', webhookRetries: 0, webhookRetryMs: 10, legacyExport: true, batteryLevel: 5, batteryCharging: false, connected: false, utcOffsetMinutes: -330,
    });
  });

  it('needs no worker token for replies, which go to the webhooks', () => {
    expect(loadConfig(readGatewaySimConfig, { GATEWAY_SIM_MODE: 'smsgate', GATEWAY_SIM_REPLY_RATE: '0.5' }).replyRate).toBe(0.5);
  });

  it.each([
    ['GATEWAY_SIM_MODE', 'android'],
    ['GATEWAY_SIM_SMSGATE_PENDING_MS', '-1'],
    ['GATEWAY_SIM_SMSGATE_HOLD', 'sometimes'],
    ['GATEWAY_SIM_SMSGATE_HANG', 'forever'],
    ['GATEWAY_SIM_SMSGATE_PROCESSING_ORDER', 'random'],
    ['GATEWAY_SIM_SMSGATE_BATTERY_LEVEL', '101'],
    ['GATEWAY_SIM_SMSGATE_UTC_OFFSET', '+3'],
    ['GATEWAY_SIM_SMSGATE_DEVICE_ID', 'has spaces'],
    ['GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER', '-1'],
    ['GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER', 'always'],
    ['GATEWAY_SIM_SMSGATE_FAILURE', 'limit'],
  ])('refuses a bad %s, naming it', (name, value) => {
    expect(() => loadConfig(readGatewaySimConfig, { GATEWAY_SIM_MODE: 'smsgate', [name]: value })).toThrow(name);
  });
});
