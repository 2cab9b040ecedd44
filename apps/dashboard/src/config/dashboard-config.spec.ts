import { loadConfig } from '@smsq/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { readDashboardConfig } from './dashboard-config.js';

describe(readDashboardConfig.name, () => {
  const nodeEnv = process.env['NODE_ENV'];

  afterEach(() => {
    process.env['NODE_ENV'] = nodeEnv;
  });

  it('works without settings in development: port 3001, a random secret, the local API, the front end beside it', () => {
    process.env['NODE_ENV'] = 'development';

    const sut = loadConfig(readDashboardConfig, {});

    expect(sut).toMatchObject({ port: 3001, publicApiUrl: 'http://localhost:3000', publicApiUrlIsLoopback: true, defaultTimeZone: 'Europe/Belgrade', sessionIdleS: 43_200 });
    expect(sut.secret).toHaveLength(43);
    expect(sut.webDir).toMatch(/apps[\\/]dashboard-web[\\/]dist$/);
    expect(loadConfig(readDashboardConfig, {}).secret).not.toBe(sut.secret);
  });

  it("hashes new passwords at bcrypt's cost 12 unless DASHBOARD_PASSWORD_COST names one from 4 to 15", () => {
    expect(loadConfig(readDashboardConfig, {}).passwordCost).toBe(12);
    expect(loadConfig(readDashboardConfig, { DASHBOARD_PASSWORD_COST: '13' }).passwordCost).toBe(13);
    expect(loadConfig(readDashboardConfig, { DASHBOARD_PASSWORD_COST: '4' }).passwordCost).toBe(4);
    expect(() => loadConfig(readDashboardConfig, { DASHBOARD_PASSWORD_COST: '3' })).toThrow(/DASHBOARD_PASSWORD_COST/);
    expect(() => loadConfig(readDashboardConfig, { DASHBOARD_PASSWORD_COST: '16' })).toThrow(/DASHBOARD_PASSWORD_COST/);
  });

  it('refuses a password cost under 10 in production', () => {
    process.env['NODE_ENV'] = 'production';
    const production = { DASHBOARD_SECRET: 'a-production-secret-of-enough-length-0123' };

    expect(() => loadConfig(readDashboardConfig, { ...production, DASHBOARD_PASSWORD_COST: '9' })).toThrow(/DASHBOARD_PASSWORD_COST must be at least 10 in production/);
    expect(loadConfig(readDashboardConfig, { ...production, DASHBOARD_PASSWORD_COST: '10' }).passwordCost).toBe(10);
  });

  it('takes the public API URL from DASHBOARD_PUBLIC_API_URL, else SMSQ_BASE_URL', () => {
    expect(loadConfig(readDashboardConfig, { SMSQ_BASE_URL: 'https://api.example.test/' }).publicApiUrl).toBe('https://api.example.test');
    expect(loadConfig(readDashboardConfig, { SMSQ_BASE_URL: 'https://a.test', DASHBOARD_PUBLIC_API_URL: 'https://b.test' }).publicApiUrl).toBe('https://b.test');
  });

  it('falls back to the gateway on this machine at its own PORT, not always 3000', () => {
    expect(loadConfig(readDashboardConfig, { PORT: '8080' }).publicApiUrl).toBe('http://localhost:8080');
    expect(loadConfig(readDashboardConfig, { PORT: '8080', SMSQ_BASE_URL: 'http://192.168.1.10:3000' }).publicApiUrl).toBe('http://192.168.1.10:3000');
    expect(() => loadConfig(readDashboardConfig, { PORT: 'eighty' })).toThrow(/PORT must be an integer/);
  });

  it('tells whether phones can reach the public API URL: not at a loopback address', () => {
    expect(loadConfig(readDashboardConfig, {}).publicApiUrlIsLoopback).toBe(true);
    expect(loadConfig(readDashboardConfig, { SMSQ_BASE_URL: 'http://127.0.0.1:3000' }).publicApiUrlIsLoopback).toBe(true);
    expect(loadConfig(readDashboardConfig, { DASHBOARD_PUBLIC_API_URL: 'http://192.168.1.10:3000' }).publicApiUrlIsLoopback).toBe(false);
  });

  it('takes the default time zone from SMSQ_TIMEZONE and refuses one that is not a zone', () => {
    expect(loadConfig(readDashboardConfig, { SMSQ_TIMEZONE: 'America/New_York' }).defaultTimeZone).toBe('America/New_York');
    expect(() => loadConfig(readDashboardConfig, { SMSQ_TIMEZONE: 'Mars/Olympus' })).toThrow(/SMSQ_TIMEZONE must be an IANA time zone/);
  });

  it('requires DASHBOARD_SECRET in production, and a long one anywhere', () => {
    process.env['NODE_ENV'] = 'production';

    expect(() => loadConfig(readDashboardConfig, {})).toThrow(/DASHBOARD_SECRET is required/);
    expect(() => loadConfig(readDashboardConfig, { DASHBOARD_SECRET: 'short' })).toThrow(/at least 32/);
    expect(loadConfig(readDashboardConfig, { DASHBOARD_SECRET: 's'.repeat(32) }).secret).toBe('s'.repeat(32));
  });

  it('logs reset links without SMTP in development only, unless asked; production mail needs DASHBOARD_PUBLIC_URL', () => {
    expect(loadConfig(readDashboardConfig, {}).resetLinksInLog).toBe(true);
    process.env['NODE_ENV'] = 'production';
    const secret = { DASHBOARD_SECRET: 's'.repeat(32) };
    expect(loadConfig(readDashboardConfig, secret).resetLinksInLog).toBe(false);
    expect(loadConfig(readDashboardConfig, { ...secret, DASHBOARD_RESET_LINKS_IN_LOG: 'true' }).resetLinksInLog).toBe(true);
    const mail = { ...secret, SMSQ_SMTP_URL: 'smtp://mail.example.test:587', SMSQ_MAIL_FROM: 'no-reply@example.test' };
    expect(() => loadConfig(readDashboardConfig, mail)).toThrow(/DASHBOARD_PUBLIC_URL is required in production with SMSQ_SMTP_URL/);
    expect(loadConfig(readDashboardConfig, { ...mail, DASHBOARD_PUBLIC_URL: 'https://dash.example.test' }).publicUrl).toBe('https://dash.example.test');
  });

  it('trusts X-Forwarded-For only from the proxies DASHBOARD_TRUST_PROXY names', () => {
    expect(loadConfig(readDashboardConfig, {}).trustProxy).toBeUndefined();
    expect(loadConfig(readDashboardConfig, { DASHBOARD_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    for (const wrong of ['everyone', '10.0.0.0/33', '10.0.0.1/8/2', 'true', '1']) {
      expect(() => loadConfig(readDashboardConfig, { DASHBOARD_TRUST_PROXY: wrong }), wrong).toThrow(/DASHBOARD_TRUST_PROXY must be proxy addresses or CIDRs/);
    }
  });

  it('puts the dashboard at DASHBOARD_PUBLIC_URL, else on this machine at DASHBOARD_PORT, for the links it sends', () => {
    expect(loadConfig(readDashboardConfig, {}).publicUrl).toBe('http://localhost:3001');
    expect(loadConfig(readDashboardConfig, { DASHBOARD_PORT: '8081' }).publicUrl).toBe('http://localhost:8081');
    expect(loadConfig(readDashboardConfig, { DASHBOARD_PUBLIC_URL: 'https://dash.example.test/' }).publicUrl).toBe('https://dash.example.test');
    expect(() => loadConfig(readDashboardConfig, { DASHBOARD_PUBLIC_URL: 'dash.example.test' })).toThrow(/DASHBOARD_PUBLIC_URL must be an http or https URL/);
  });

  it('sends mail only with both SMSQ_SMTP_URL and SMSQ_MAIL_FROM, and refuses a malformed one', () => {
    expect(loadConfig(readDashboardConfig, {})).toMatchObject({ smtpUrl: undefined, mailFrom: undefined });
    expect(loadConfig(readDashboardConfig, { SMSQ_SMTP_URL: 'smtp://mail.example.test:587', SMSQ_MAIL_FROM: 'smsq <no-reply@example.test>' })).toMatchObject({
      smtpUrl: 'smtp://mail.example.test:587',
      mailFrom: 'smsq <no-reply@example.test>',
    });
    expect(() => loadConfig(readDashboardConfig, { SMSQ_SMTP_URL: 'smtp://mail.example.test' })).toThrow(/SMSQ_MAIL_FROM is required/);
    expect(() => loadConfig(readDashboardConfig, { SMSQ_SMTP_URL: 'http://mail.example.test', SMSQ_MAIL_FROM: 'a@b.test' })).toThrow(/SMSQ_SMTP_URL must be a smtp or smtps URL/);
    expect(() => loadConfig(readDashboardConfig, { SMSQ_SMTP_URL: 'smtp://mail.example.test', SMSQ_MAIL_FROM: 'nobody' })).toThrow(/SMSQ_MAIL_FROM must be an e-mail address/);
  });

  it('prunes expired password resets a day after they expired, every 5 minutes, unless SMSQ_RETENTION_* says otherwise, and refuses nonsense', () => {
    expect(loadConfig(readDashboardConfig, {})).toMatchObject({ passwordResetRetentionS: 86_400, retentionIntervalS: 300 });
    expect(loadConfig(readDashboardConfig, { SMSQ_RETENTION_PASSWORD_RESET_S: '120', SMSQ_RETENTION_INTERVAL_S: '15' })).toMatchObject({ passwordResetRetentionS: 120, retentionIntervalS: 15 });
    expect(() => loadConfig(readDashboardConfig, { SMSQ_RETENTION_PASSWORD_RESET_S: '-5' })).toThrow(/SMSQ_RETENTION_PASSWORD_RESET_S must be an integer/);
    expect(() => loadConfig(readDashboardConfig, { SMSQ_RETENTION_INTERVAL_S: 'often' })).toThrow(/SMSQ_RETENTION_INTERVAL_S must be an integer/);
  });
});
