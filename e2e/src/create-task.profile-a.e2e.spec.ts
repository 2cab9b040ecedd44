import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localNow, secondsApart } from './support/local-time.js';
import { sharedStack } from './support/shared-stack.js';
import type { Stack } from './support/stack.js';

const SMS = { recipient: '+381641234567', message: 'Hello from the test' };

describe('POST /smsapi/create-task, Profile A', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  describe('a valid request', () => {
    it('answers 201 with exactly the contract fields and debits one daily credit', async () => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, SMS);
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body)).toEqual(['ok', 'id', 'status', 'phone_id', 'client_id', 'charged', 'scheduled_at', 'credits_remaining']);
      expect(answer.body).toMatchObject({ ok: true, status: 'pending', phone_id: client.phoneId, client_id: client.clientId, charged: true, credits_remaining: 29 });
      expect(Number.isInteger(answer.body.id)).toBe(true);
      expect(secondsApart(answer.body.scheduled_at, localNow('Europe/Belgrade'))).toBeLessThan(5);
      expect(await stack.credits(client.clientId)).toBe(29);
    });

    it('lets the owner read the task back with its delivery fields', async () => {
      const client = await stack.newClient();
      const created = await stack.createTask(client.apiKey, { ...SMS, recipient: '064 123 4567' });
      const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({
        id: created.body.id,
        status: 'pending',
        phone_id: client.phoneId,
        first_phone_id: client.phoneId,
        client_id: client.clientId,
        scheduled_at: created.body.scheduled_at,
        recipient: '+381641234567',
        message: SMS.message,
        encrypted: false,
        attempts: 0,
        sent_at: null,
        delivered_at: null,
        failed_at: null,
        error: null,
        expires_at: null,
        segments: 1,
        priority: 'normal',
        rerouted_because: null,
      });
    });

    it('accepts the key in ?api_key= as well', async () => {
      const client = await stack.newClient();
      const answer = await stack.http('POST', `/smsapi/create-task?api_key=${client.apiKey}`, { body: SMS });
      expect(answer.status).toBe(201);
    });
  });

  describe('recipient', () => {
    it.each([
      ['064 123 4567', '+381641234567'],
      ['06-41-23-45-67', '+381641234567'],
      ['+381 (64) 123.45.67', '+381641234567'],
      ['00381641234567', '+381641234567'],
      ['+1 212 555 0123', '+12125550123'],
      ['+44 7911 123456', '+447911123456'],
    ])('normalises %s to %s', async (recipient, e164) => {
      const client = await stack.newClient();
      const created = await stack.createTask(client.apiKey, { ...SMS, recipient });
      expect(created.status).toBe(201);
      const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(read.body.recipient).toBe(e164);
    });

    it.each(['hello', '12', '+999 123 456 789', '0111234567', '+38164', '', '+381641234567x'])('refuses %j as invalid_recipient without a debit', async (recipient) => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, { ...SMS, recipient });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_recipient');
      expect(typeof answer.body.detail).toBe('string');
      expect(await stack.credits(client.clientId)).toBe(30);
    });
  });

  describe('body', () => {
    it.each([
      [{ message: 'no recipient' }, 'invalid_request'],
      [{ recipient: 381641234567, message: 'number' }, 'invalid_request'],
      [{ recipient: '+381641234567' }, 'invalid_request'],
      [{ recipient: '+381641234567', message: 42 }, 'invalid_request'],
      [[SMS], 'invalid_request'],
      ['a string', 'invalid_request'],
      [{ ...SMS, message: '' }, 'invalid_message'],
      [{ ...SMS, message: '   ' }, 'invalid_message'],
      [{ ...SMS, message: 'x'.repeat(1601) }, 'invalid_message'],
      [{ ...SMS, message: 'nul \u0000 inside' }, 'invalid_message'],
    ])('refuses %j with %s', async (body, error) => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(error);
      expect(await stack.credits(client.clientId)).toBe(30);
    });

    it('counts the message in code points: 1600 emoji are accepted', async () => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, { ...SMS, message: '😀'.repeat(1600) });
      expect(answer.status).toBe(201);
    });

    it('answers invalid_json for a body that is not JSON, after the key is checked', async () => {
      const client = await stack.newClient();
      const withKey = await stack.http('POST', '/smsapi/create-task', { headers: { 'x-api-key': client.apiKey }, rawBody: '{"recipient": ' });
      expect(withKey.status).toBe(400);
      expect(withKey.body.error).toBe('invalid_json');
      const withoutKey = await stack.http('POST', '/smsapi/create-task', { rawBody: '{"recipient": ' });
      expect(withoutKey.status).toBe(401);
    });

    it('answers 413 payload_too_large over 64 KiB', async () => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, { ...SMS, message: 'x'.repeat(70_000) });
      expect(answer.status).toBe(413);
      expect(answer.body.error).toBe('payload_too_large');
    });
  });

  describe('scheduled_at', () => {
    it.each([
      ['2031-05-01 09:30:00', '2031-05-01 09:30:00'],
      ['2031-05-01T09:30', '2031-05-01 09:30:00'],
      ['2031-05-01T09:30:15', '2031-05-01 09:30:15'],
      ['2031-05-01 09:30', '2031-05-01 09:30:00'],
    ])('accepts %s and answers %s', async (scheduled_at, answered) => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, { ...SMS, scheduled_at });
      expect(answer.status).toBe(201);
      expect(answer.body.scheduled_at).toBe(answered);
    });

    it.each(['2031-13-01 10:00:00', '2031-02-30 10:00', '2031-05-01', 'tomorrow', '2031-05-01 25:00', '01.05.2031 10:00', '2031-05-01T09:30:00Z', '2031-03-30 02:30:00', 12345])(
      'refuses %j as invalid_scheduled_at',
      async (scheduled_at) => {
        const client = await stack.newClient();
        const answer = await stack.createTask(client.apiKey, { ...SMS, scheduled_at });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe('invalid_scheduled_at');
        expect(await stack.credits(client.clientId)).toBe(30);
      },
    );

    it('takes a time in the past as due at once and echoes it', async () => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, { ...SMS, scheduled_at: '2020-01-01 08:00:00' });
      expect(answer.status).toBe(201);
      expect(answer.body.scheduled_at).toBe('2020-01-01 08:00:00');
    });

    it("reads local times in the client's own time zone", async () => {
      const client = await stack.newClient({ timezone: 'America/New_York' });
      const omitted = await stack.createTask(client.apiKey, SMS);
      expect(secondsApart(omitted.body.scheduled_at, localNow('America/New_York'))).toBeLessThan(5);
      const given = await stack.createTask(client.apiKey, { ...SMS, scheduled_at: '2031-07-04T12:00' });
      expect(given.body.scheduled_at).toBe('2031-07-04 12:00:00');
    });
  });

  describe('phone_id', () => {
    it("ignores another client's, a disabled, an unknown or a malformed phone_id and uses the first active own phone", async () => {
      const other = await stack.newClient();
      const client = await stack.newClient();
      const { phone_id: second } = await stack.adminOk('phone', 'register', '--client', String(client.clientId), '--name', 'second');
      await stack.adminOk('phone', 'disable', '--phone', String(second));
      for (const phone_id of [other.phoneId, second, 999_999, 'abc', -1, 1.5, null, { id: 1 }]) {
        const answer = await stack.createTask(client.apiKey, { ...SMS, phone_id });
        expect(answer.status, JSON.stringify(phone_id)).toBe(201);
        expect(answer.body.phone_id, JSON.stringify(phone_id)).toBe(client.phoneId);
      }
    });

    it('uses an active own phone that is asked for', async () => {
      const client = await stack.newClient();
      const { phone_id: second } = await stack.adminOk('phone', 'register', '--client', String(client.clientId), '--name', 'second');
      const answer = await stack.createTask(client.apiKey, { ...SMS, phone_id: second });
      expect(answer.body.phone_id).toBe(second);
      // Digits in a string are not a number: ignored, so the first active phone is used.
      const asText = await stack.createTask(client.apiKey, { ...SMS, phone_id: String(second) });
      expect(asText.body.phone_id).toBe(client.phoneId);
    });

    it('answers 400 no_active_phone when the client has no active phone, and debits nothing', async () => {
      const client = await stack.newClient({ phone: false });
      const none = await stack.createTask(client.apiKey, SMS);
      expect(none.status).toBe(400);
      expect(none.body.error).toBe('no_active_phone');
      const { phone_id } = await stack.adminOk('phone', 'register', '--client', String(client.clientId), '--name', 'only');
      await stack.adminOk('phone', 'disable', '--phone', String(phone_id));
      const disabled = await stack.createTask(client.apiKey, SMS);
      expect(disabled.body.error).toBe('no_active_phone');
      expect(await stack.credits(client.clientId)).toBe(30);
      await stack.adminOk('phone', 'enable', '--phone', String(phone_id));
      expect((await stack.createTask(client.apiKey, SMS)).status).toBe(201);
    });
  });

  describe('credits', () => {
    it('gives 30 a day on the free plan, then 402 daily_limit_reached; bonus credits come after the daily ones', async () => {
      const client = await stack.newClient();
      const answers = [];
      for (let sent = 0; sent < 30; sent++) answers.push(await stack.createTask(client.apiKey, SMS));
      expect(answers.map((answer) => answer.body.credits_remaining)).toEqual(Array.from({ length: 30 }, (_, index) => 29 - index));
      const refused = await stack.createTask(client.apiKey, SMS);
      expect(refused.status).toBe(402);
      expect(refused.body.error).toBe('daily_limit_reached');
      expect((await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', '2')).credits_remaining).toBe(2);
      expect((await stack.createTask(client.apiKey, SMS)).body.credits_remaining).toBe(1);
      expect((await stack.createTask(client.apiKey, SMS)).body.credits_remaining).toBe(0);
      expect((await stack.createTask(client.apiKey, SMS)).status).toBe(402);
    });

    it('never overspends under concurrent requests', async () => {
      const client = await stack.newClient();
      const answers = await Promise.all(Array.from({ length: 40 }, () => stack.createTask(client.apiKey, SMS)));
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(30);
      expect(answers.filter((answer) => answer.status === 402)).toHaveLength(10);
      expect(new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.body.id)).size).toBe(30);
      expect(await stack.credits(client.clientId)).toBe(0);
    });
  });

  describe('order of checks', () => {
    it('checks the credential, then the body, then the phone, then the credits', async () => {
      const client = await stack.newClient();
      expect((await stack.createTask('smsq_key_wrong', { message: 1 })).status).toBe(401);
      expect((await stack.createTask(client.apiKey, { message: 1 })).body.error).toBe('invalid_request');
      await Promise.all(Array.from({ length: 30 }, () => stack.createTask(client.apiKey, SMS)));
      expect((await stack.createTask(client.apiKey, { recipient: 'bad', message: 'x' })).body.error).toBe('invalid_recipient');
      expect((await stack.createTask(client.apiKey, SMS)).body.error).toBe('daily_limit_reached');
      await stack.adminOk('phone', 'disable', '--phone', String(client.phoneId));
      expect((await stack.createTask(client.apiKey, SMS)).body.error).toBe('no_active_phone');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer to a repeat and debits once', async () => {
      const client = await stack.newClient();
      const first = await stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'order-1' });
      const repeat = await stack.createTask(client.apiKey, { message: SMS.message, recipient: SMS.recipient }, { 'idempotency-key': 'order-1' });
      expect(first.status).toBe(201);
      expect(repeat.status).toBe(201);
      expect(repeat.body).toEqual(first.body);
      expect(await stack.credits(client.clientId)).toBe(29);
    });

    it('answers 409 conflict to the same key with another body', async () => {
      const client = await stack.newClient();
      await stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'order-2' });
      const other = await stack.createTask(client.apiKey, { ...SMS, message: 'different' }, { 'idempotency-key': 'order-2' });
      expect(other.status).toBe(409);
      expect(other.body.error).toBe('conflict');
    });

    it('queues one task for concurrent repeats', async () => {
      const client = await stack.newClient();
      const answers = await Promise.all(Array.from({ length: 8 }, () => stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'burst' })));
      const created = answers.filter((answer) => answer.status === 201);
      expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
      expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
      expect(await stack.credits(client.clientId)).toBe(29);
    });

    it('is scoped to the client', async () => {
      const first = await stack.newClient();
      const second = await stack.newClient();
      const a = await stack.createTask(first.apiKey, SMS, { 'idempotency-key': 'shared' });
      const b = await stack.createTask(second.apiKey, SMS, { 'idempotency-key': 'shared' });
      expect(b.status).toBe(201);
      expect(b.body.id).not.toBe(a.body.id);
    });

    it('refuses a key longer than 255 characters', async () => {
      const client = await stack.newClient();
      const answer = await stack.createTask(client.apiKey, SMS, { 'idempotency-key': 'k'.repeat(256) });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_request');
      expect(await stack.credits(client.clientId)).toBe(30);
    });
  });

  describe('GET /smsapi/tasks/{id}', () => {
    it("answers 404 for another client's task, an unknown id and a malformed id", async () => {
      const owner = await stack.newClient();
      const stranger = await stack.newClient();
      const created = await stack.createTask(owner.apiKey, SMS);
      for (const id of [created.body.id, 99_999_999, 'abc', '0', '-1']) {
        const answer = await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': stranger.apiKey } });
        expect(answer.status, String(id)).toBe(404);
        expect(answer.body.error).toBe('not_found');
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 for a missing, unknown, malformed or revoked key, and revocation works at once on a cached key', async () => {
      const client = await stack.newClient();
      expect((await stack.http('POST', '/smsapi/create-task', { body: SMS })).status).toBe(401);
      expect((await stack.createTask('nonsense', SMS)).body.error).toBe('unauthorized');
      const forged = client.apiKey.slice(0, -1) + (client.apiKey.endsWith('A') ? 'B' : 'A');
      expect((await stack.createTask(forged, SMS)).status).toBe(401);
      expect((await stack.createTask(client.apiKey, SMS)).status).toBe(201);
      await stack.adminOk('key', 'revoke', '--key', String(client.keyId));
      const revoked = await stack.createTask(client.apiKey, SMS);
      expect(revoked.status).toBe(401);
      expect(revoked.body.error).toBe('unauthorized');
    });

    it('refuses a worker token on a client path', async () => {
      const client = await stack.newClient();
      const { worker_token } = await stack.adminOk('worker-token', 'create', '--phone', String(client.phoneId));
      expect((await stack.http('POST', '/smsapi/create-task', { headers: { 'x-worker-token': worker_token }, body: SMS })).status).toBe(401);
      expect((await stack.createTask(client.apiKey, SMS, { 'x-worker-token': worker_token })).status).toBe(401);
    });
  });

  describe('HTTP surface', () => {
    it('answers 405 with Allow for a wrong method and 404 for an unknown path, in the JSON error shape', async () => {
      const wrong = await stack.http('GET', '/smsapi/create-task');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      expect(wrong.body.error).toBe('method_not_allowed');
      const unknown = await stack.http('GET', '/smsapi/no-such-thing');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: 'not_found' });
    });
  });
});
