import { ConfigError, loadConfig } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
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
    });
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
