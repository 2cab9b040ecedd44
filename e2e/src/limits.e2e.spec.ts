import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from './support/sql.js';
import { Stack } from './support/stack.js';

const SMS = { recipient: '+381641234567', message: 'timing' };

/** An hour: long enough that no step of a test outlasts a period, however busy the machine; the tests end periods themselves. */
const DAILY_PERIOD_S = 3_600;

describe('time-based rules, with a period ended on purpose', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_DAILY_PERIOD_S: String(DAILY_PERIOD_S) } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function account(clientId: number): Promise<{ daily_remaining: number; bonus_remaining: number }> {
    return stack.adminOk('client', 'show', '--client', String(clientId));
  }

  /** The client's period as if it had started a period ago: it is over, as time passing would end it. */
  async function endPeriod(clientId: number): Promise<void> {
    const ended = await query(stack.env['DATABASE_URL']!, "UPDATE billing.accounts SET period_started_at = period_started_at - make_interval(secs => $2) WHERE client_id = $1 RETURNING client_id", [clientId, DAILY_PERIOD_S]);
    expect(ended).toHaveLength(1);
  }

  it('refills the daily bucket to the allowance after the period: unused credits do not stack', async () => {
    const client = await stack.newClient();
    await Promise.all(Array.from({ length: 10 }, () => stack.createTask(client.apiKey, SMS)));
    expect((await account(client.clientId)).daily_remaining).toBe(20);
    await endPeriod(client.clientId);
    await eventually(async () => expect((await account(client.clientId)).daily_remaining).toBe(30), { timeoutMs: 15_000, intervalMs: 500 });
  });

  it('keeps bonus credits across periods and spends them only after the daily ones', async () => {
    const client = await stack.newClient();
    await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', '5');
    const answers = await Promise.all(Array.from({ length: 32 }, () => stack.createTask(client.apiKey, SMS)));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    expect(await account(client.clientId)).toMatchObject({ daily_remaining: 0, bonus_remaining: 3 });
    await endPeriod(client.clientId);
    await eventually(async () => expect(await account(client.clientId)).toMatchObject({ daily_remaining: 30, bonus_remaining: 3 }), {
      timeoutMs: 15_000,
      intervalMs: 500,
    });
    expect((await stack.createTask(client.apiKey, SMS)).body.credits_remaining).toBe(32);
  });
});

describe('the per-key rate limit', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_RATE_LIMIT_RPS: '1' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lets a burst of twice the rate through, then answers 429 rate_limited with Retry-After', async () => {
    const client = await stack.newClient();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => stack.createTask(client.apiKey, SMS)));
    const elapsedS = (Date.now() - started) / 1000;
    const allowed = answers.filter((answer) => answer.status === 201).length;
    const limited = answers.filter((answer) => answer.status === 429);
    expect(allowed + limited.length).toBe(12);
    // A bucket of 2 that refills 1 a second cannot have let more through in the time the burst took.
    expect(allowed).toBeGreaterThanOrEqual(2);
    expect(allowed).toBeLessThanOrEqual(2 + Math.ceil(elapsedS));
    expect(limited[0]?.body.error).toBe('rate_limited');
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another key has a bucket of its own.
    const other = await stack.newClient();
    expect((await stack.createTask(other.apiKey, SMS)).status).toBe(201);
  });
});
