import { ConfigError, loadConfig } from '@smsq/platform/env';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeStoredPassphrase } from '../encryption/stored-passphrase.js';
import { lookUpPassphrase } from '../encryption/worker-passphrase.js';
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
      passphrase: undefined,
      encryptReplies: false,
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

  describe('the passphrase of encrypted messages', () => {
    const read = (env: Record<string, string>, stateDir?: string) => loadConfig((reader) => readWorkerConfig(reader, undefined, lookUpPassphrase(env, stateDir)), { WORKER_TOKEN: 't', ...env });
    const file = (content: string | Buffer): string => {
      const path = join(mkdtempSync(join(tmpdir(), 'passphrase-')), 'passphrase.txt');
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    };

    it('takes WORKER_PASSPHRASE exactly as given, spaces and all', () => {
      expect(read({ WORKER_PASSPHRASE: ' Šifra za poruke 🔐 ' }).passphrase).toEqual({ text: ' Šifra za poruke 🔐 ', origin: 'WORKER_PASSPHRASE' });
    });

    it('reads WORKER_PASSPHRASE_FILE, dropping only its final line break', () => {
      const path = file(' five random words here \n');

      expect(read({ WORKER_PASSPHRASE_FILE: path }).passphrase).toEqual({ text: ' five random words here ', origin: 'WORKER_PASSPHRASE_FILE' });
    });

    it('takes the one pair stored in the state folder when the environment names none, and the environment\'s over it', () => {
      const stateDir = mkdtempSync(join(tmpdir(), 'state-'));
      const stored = writeStoredPassphrase(stateDir, 'stored words');

      expect(read({}, stateDir).passphrase).toEqual({ text: 'stored words', origin: stored });
      expect(read({ WORKER_PASSPHRASE: 'from the environment' }, stateDir).passphrase?.text).toBe('from the environment');
    });

    it('refuses a passphrase file that is missing, empty or not UTF-8, and both settings at once, naming them and never a passphrase', () => {
      expect(() => read({ WORKER_PASSPHRASE_FILE: '/nonexistent/passphrase' })).toThrow('WORKER_PASSPHRASE_FILE: cannot read the passphrase from /nonexistent/passphrase: ENOENT');
      expect(() => read({ WORKER_PASSPHRASE_FILE: file('\n') })).toThrow(/WORKER_PASSPHRASE_FILE: .* is empty; a passphrase cannot be empty/);
      expect(() => read({ WORKER_PASSPHRASE_FILE: file(Buffer.from([0x70, 0xff, 0x71])) })).toThrow(/cannot read the passphrase from .*: it is not UTF-8 text/);
      const both = (): unknown => read({ WORKER_PASSPHRASE: 'secret words', WORKER_PASSPHRASE_FILE: file('other words') });
      expect(both).toThrow('set WORKER_PASSPHRASE or WORKER_PASSPHRASE_FILE, not both');
      expect(both).not.toThrow('secret');
    });

    it('refuses to start with WORKER_ENCRYPT_REPLIES and no passphrase to seal replies with', () => {
      expect(() => read({ WORKER_ENCRYPT_REPLIES: 'true' })).toThrow(
        "WORKER_ENCRYPT_REPLIES=true needs the client's passphrase to seal replies with: set WORKER_PASSPHRASE or WORKER_PASSPHRASE_FILE, or pair with --passphrase",
      );
      expect(read({ WORKER_ENCRYPT_REPLIES: 'true', WORKER_PASSPHRASE: 'correct horse battery staple' }).encryptReplies).toBe(true);
      expect(read({ WORKER_PASSPHRASE: 'correct horse battery staple' }).encryptReplies).toBe(false);
    });
  });
});
