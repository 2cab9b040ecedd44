import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from './support/shared-stack.js';
import type { Stack } from './support/stack.js';

/** The admin command line of DESIGN.md §5, run as a user runs it. */
describe('admin command line', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('prints exactly one JSON object per command and exits 0', async () => {
    const created = await stack.cli('client', 'create', '--name', 'Acme', '--plan', 'starter', '--timezone', 'Europe/London');
    expect(created.exitCode).toBe(0);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(created.output)).toEqual(['client_id']);
    const client = String(created.output.client_id);

    const key = await stack.cli('key', 'create', '--client', client);
    expect(key.output.api_key).toMatch(/^smsq_key_/);
    expect(Number.isInteger(key.output.key_id)).toBe(true);

    const phone = await stack.cli('phone', 'register', '--client', client, '--name', 'Office');
    expect(Number.isInteger(phone.output.phone_id)).toBe(true);
    expect(phone.output.worker_token).toMatch(/^smsq_wkr_/);

    expect((await stack.cli('credits', 'grant', '--client', client, '--amount', '5')).output).toEqual({ credits_remaining: 1005 });
    expect((await stack.cli('plan', 'set', '--client', client, '--plan', 'pro')).output).toEqual({
      client_id: Number(client),
      plan: 'pro',
      daily_allowance: 10_000,
      phone_limit: 10,
    });
    const shown = await stack.cli('client', 'show', '--client', client);
    expect(shown.output).toMatchObject({ client_id: Number(client), name: 'Acme', timezone: 'Europe/London', plan: 'pro', credits_remaining: 1005, bonus_remaining: 5 });

    expect((await stack.cli('phone', 'disable', '--phone', String(phone.output.phone_id))).output).toEqual({ ok: true });
    expect((await stack.cli('phone', 'enable', '--phone', String(phone.output.phone_id))).output).toEqual({ ok: true });
    const token = await stack.cli('worker-token', 'create', '--phone', String(phone.output.phone_id));
    expect(token.output.worker_token).toMatch(/^smsq_wkr_/);
    expect((await stack.cli('worker-token', 'revoke', '--token', String(token.output.token_id))).output).toEqual({ ok: true });
    expect((await stack.cli('key', 'revoke', '--key', String(key.output.key_id))).output).toEqual({ ok: true });
  });

  it('disables a client so that its keys answer 401 at once, and enables it with nothing lost', async () => {
    const client = await stack.newClient();
    const queued = await stack.createTask(client.apiKey, { recipient: '+381641234567', message: 'before' });
    expect(queued.status).toBe(201);
    const credits = await stack.credits(client.clientId);
    // The key is in use, so every gateway has its owner cached.
    expect((await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } })).status).toBe(200);

    const disabled = await stack.cli('client', 'disable', '--client', String(client.clientId));

    expect(disabled.output).toEqual({ client_id: client.clientId, disabled: true, disabled_at: expect.any(String) });
    for (const answer of [await stack.createTask(client.apiKey, { recipient: '+381641234567', message: 'while disabled' }), await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } })]) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('unauthorized');
    }
    expect((await stack.cli('client', 'show', '--client', String(client.clientId))).output.credits_remaining).toBe(credits);

    expect((await stack.cli('client', 'enable', '--client', String(client.clientId))).output).toEqual({ client_id: client.clientId, disabled: false, disabled_at: null });
    const task = await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } });
    expect(task.body).toMatchObject({ id: queued.body.id, status: 'pending', message: 'before' });
    expect((await stack.createTask(client.apiKey, { recipient: '+381641234567', message: 'after' })).status).toBe(201);
    expect((await stack.cli('client', 'disable', '--client', '999999')).output.error).toBe('not_found');
  });

  it("shows and sets a client's sending rules and a phone's SIM limits, and resumes a phone", async () => {
    const { client_id: clientId } = await stack.adminOk('client', 'create', '--name', 'SIM care', '--timezone', 'Europe/London');
    const client = String(clientId);
    const { phone_id: phoneId } = await stack.adminOk('phone', 'register', '--client', client, '--name', 'Office');
    const phone = String(phoneId);

    // The process as a user runs it once; the rest in this process (the command line's own code, without its start-up time).
    const shown = await stack.cli('sending-rules', 'show', '--client', client);
    expect(shown.exitCode).toBe(0);
    expect(shown.output).toEqual({ client_id: clientId, routing_mode: 'first', sticky_days: 30, send_windows: [], time_zone: 'Europe/London', window_open: true, window_opens_at: null, windows: 'none' });

    expect(await stack.adminOk('sending-rules', 'set', '--client', client, '--mode', 'sticky', '--sticky-days', '14', '--windows', 'daily 00:00-24:00')).toEqual({
      client_id: clientId,
      routing_mode: 'sticky',
      sticky_days: 14,
      send_windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '00:00', to: '24:00' }],
      time_zone: 'Europe/London',
      window_open: true,
      window_opens_at: null,
      windows: 'daily 00:00-24:00',
    });
    // What the command line set is what the client's API key reads.
    const { api_key: apiKey } = await stack.adminOk('key', 'create', '--client', client);
    expect((await stack.http('GET', '/smsapi/sending-rules', { headers: { 'x-api-key': apiKey } })).body).toMatchObject({ routing_mode: 'sticky', sticky_days: 14 });
    expect(await stack.adminOk('sending-rules', 'set', '--client', client, '--windows', 'none')).toMatchObject({ routing_mode: 'sticky', send_windows: [], windows: 'none' });

    expect(await stack.adminOk('phone', 'set', '--phone', phone, '--monthly-recipients', '150', '--jitter', '20', '--sims', '2')).toMatchObject({ phone_id: phoneId, kind: 'own', client_id: clientId, daily_limit: null, per_minute: null, monthly_recipients: 150, jitter: 20, sims: 2, paused_until: null, pause_reason: null });
    expect(await stack.adminOk('phone', 'set', '--phone', phone, '--jitter', 'none')).toMatchObject({ monthly_recipients: 150, jitter: null, sims: 2 });

    // Not paused: answered as it is.
    expect(await stack.adminOk('phone', 'resume', '--phone', phone)).toMatchObject({ phone_id: phoneId, paused_until: null, pause_reason: null });

    for (const args of [
      ['sending-rules', 'set', '--client', client, '--mode', 'fastest'],
      ['sending-rules', 'set', '--client', client, '--windows', 'someday 08:00-21:00'],
      ['sending-rules', 'set', '--client', client],
      ['sending-rules', 'show', '--client', '999999'],
      ['phone', 'set', '--phone', phone, '--sims', '3'],
      ['phone', 'resume', '--phone', '999999'],
    ]) {
      const result = await stack.admin(...args);
      expect(result.exitCode, args.join(' ')).not.toBe(0);
      expect(Object.keys(result.output).sort(), args.join(' ')).toEqual(['detail', 'error']);
    }
  });

  it('prints {error, detail} and exits non-zero on an error', async () => {
    for (const args of [
      ['client', 'show', '--client', '999999'],
      ['client', 'create'],
      ['client', 'create', '--name', 'x', '--plan', 'platinum'],
      ['client', 'create', '--name', 'x', '--timezone', 'Mars/Olympus'],
      ['key', 'create', '--client', 'abc'],
      ['key', 'revoke', '--key', '999999'],
      ['plan', 'set', '--client', '1', '--plan', 'free', '--daily', '5'],
      ['credits', 'grant', '--client', '999999', '--amount', '5'],
      ['plan', 'set', '--client', '999999', '--plan', 'pro'],
      ['gateway', 'create', '--name', 'g', '--url', 'http://x'],
      ['worker-token', 'create'],
      ['launch', 'rockets'],
    ]) {
      const result = await stack.cli(...args);
      expect(result.exitCode, args.join(' ')).not.toBe(0);
      expect(Object.keys(result.output).sort(), args.join(' ')).toEqual(['detail', 'error']);
    }
  });

  it('enforces the plan phone limit when registering phones', async () => {
    const { client_id } = await stack.adminOk('client', 'create', '--name', 'two phones');
    await stack.adminOk('phone', 'register', '--client', String(client_id), '--name', 'one');
    await stack.adminOk('phone', 'register', '--client', String(client_id), '--name', 'two');
    const third = await stack.cli('phone', 'register', '--client', String(client_id), '--name', 'three');
    expect(third.exitCode).not.toBe(0);
    expect(third.output.error).toBe('phone_limit_reached');
  });
});
