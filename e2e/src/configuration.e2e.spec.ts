import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { appFile } from './support/stack.js';

function start(service: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [appFile(service)], { env: { ...process.env, ...env }, timeout: 20_000 }, (error, _stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr });
    });
  });
}

/** A bad or missing value stops a service at start with a message that names it. */
describe('configuration is validated at start', () => {
  it.each([
    ['billing', { BILLING_PORT: 'abc', SMSQ_DAILY_PERIOD_S: '0' }, ['BILLING_PORT', 'SMSQ_DAILY_PERIOD_S']],
    ['dispatch', { SMSQ_PROFILE: 'C', SMSQ_MAX_ATTEMPTS: 'three' }, ['SMSQ_PROFILE', 'SMSQ_MAX_ATTEMPTS']],
    ['api-gateway', { SMSQ_TIMEZONE: 'Mars/Olympus', SMSQ_RATE_LIMIT_RPS: '-5', DATABASE_URL: 'mysql://localhost/smsq' }, ['SMSQ_TIMEZONE', 'SMSQ_RATE_LIMIT_RPS', 'DATABASE_URL']],
    ['admin', { AMQP_URL: 'http://localhost' }, ['AMQP_URL']],
  ])('%s stops and names every bad variable', async (service, env, names) => {
    const { code, stderr } = await start(service, env);
    expect(code).toBe(78);
    for (const name of names) expect(stderr).toContain(name);
  });
});
