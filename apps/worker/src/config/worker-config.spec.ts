import { ConfigError, loadConfig } from '@smsq/platform/env';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PairedPhone } from '../pairing/paired-phone.js';
import { DEFAULT_RETRY_TIMINGS, readWorkerConfig } from './worker-config.js';

describe(readWorkerConfig.name, () => {
  it('needs only the token; everything else has a default', () => {
    expect(loadConfig(readWorkerConfig, { WORKER_TOKEN: 'smsq_wkr_abc', SMSQ_LOG_FORMAT: 'text' })).toEqual({
      baseUrl: 'http://127.0.0.1:3000',
      token: 'smsq_wkr_abc',
      waitS: 25,
      concurrency: 1,
      sendTimeoutMs: 10_000,
      logFormat: 'text',
      timings: DEFAULT_RETRY_TIMINGS,
      driver: 'http',
      stateDir: join(homedir(), '.smsq-worker'),
      pacing: { perMinute: 0, jitterMs: 0 },
      simNumber: undefined,
      gatewayUrl: undefined,
      smsgate: { user: '', password: '', deliveryReports: true, ttlMarginMs: 30_000, inboxPollIntervalMs: 15_000, webhook: undefined },
      termuxTimeoutMs: 20_000,
      healthIntervalMs: 300_000,
      stopGraceMs: 10_000,
    });
  });

  it('takes smsq\'s address, the token and the driver from the paired phone, and paces a phone by default', () => {
    const paired: PairedPhone = { baseUrl: 'https://sms.example', workerToken: 'smsq_wkr_paired', phoneId: 3, deviceId: 'd', name: 'p', driver: 'smsgate', gatewayUrl: 'http://192.168.1.20:8080', pairedAt: '2026-11-23T10:00:00.000Z' };

    const config = loadConfig((env) => readWorkerConfig(env, paired), { SMSGATE_USER: 'sms', SMSGATE_PASSWORD: 'pw' });

    expect(config).toMatchObject({ baseUrl: 'https://sms.example', token: 'smsq_wkr_paired', driver: 'smsgate', gatewayUrl: 'http://192.168.1.20:8080', pacing: { perMinute: 12, jitterMs: 2000 }, smsgate: { user: 'sms', password: 'pw' } });
  });

  it('lets the environment override the paired phone', () => {
    const paired: PairedPhone = { baseUrl: 'https://sms.example', workerToken: 'smsq_wkr_paired', phoneId: 3, deviceId: 'd', name: 'p', driver: 'termux', gatewayUrl: null, pairedAt: '2026-11-23T10:00:00.000Z' };

    const config = loadConfig((env) => readWorkerConfig(env, paired), { WORKER_TOKEN: 'smsq_wkr_env', SMSQ_BASE_URL: 'http://10.0.0.2:3000', WORKER_SENDS_PER_MINUTE: '20', WORKER_SIM: '2' });

    expect(config).toMatchObject({ baseUrl: 'http://10.0.0.2:3000', token: 'smsq_wkr_env', driver: 'termux', pacing: { perMinute: 20 }, simNumber: 2 });
  });

  it('needs SMSGate\'s login for the smsgate driver, and names both variables', () => {
    const read = (): unknown => loadConfig(readWorkerConfig, { WORKER_TOKEN: 't', WORKER_DRIVER: 'smsgate' });

    expect(read).toThrow('SMSGATE_USER is required');
    expect(read).toThrow('SMSGATE_PASSWORD is required');
  });

  it('reads every variable and drops a trailing slash from the base URL', () => {
    const config = loadConfig(readWorkerConfig, { WORKER_TOKEN: 't', SMSQ_BASE_URL: 'https://smsq.example/', WORKER_WAIT_S: '30', WORKER_CONCURRENCY: '32', WORKER_SEND_TIMEOUT_MS: '2500' });

    expect(config).toMatchObject({ baseUrl: 'https://smsq.example', waitS: 30, concurrency: 32, sendTimeoutMs: 2500 });
  });

  it('refuses a missing token and out-of-range values, naming each variable', () => {
    const read = (): unknown => loadConfig(readWorkerConfig, { SMSQ_BASE_URL: 'ftp://x', WORKER_WAIT_S: '31', WORKER_CONCURRENCY: '0', WORKER_SEND_TIMEOUT_MS: 'soon' });

    expect(read).toThrow(ConfigError);
    for (const name of ['WORKER_TOKEN is required', 'SMSQ_BASE_URL', 'WORKER_WAIT_S', 'WORKER_CONCURRENCY', 'WORKER_SEND_TIMEOUT_MS']) expect(read).toThrow(name);
  });

  it('refuses a token that cannot travel in a header without printing it', () => {
    const read = (): unknown => loadConfig(readWorkerConfig, { WORKER_TOKEN: 'secret with spaces' });

    expect(read).toThrow('WORKER_TOKEN must be printable ASCII without spaces');
    expect(read).not.toThrow('secret');
  });
});
