import { Patterns, type InboxPage } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localNow } from './support/local-time.js';
import { sharedStack } from './support/shared-stack.js';
import type { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'deliver me' };

describe('the delivery path, Profile A', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A client whose phone registered through the API, as the gateway app does. */
  async function pairedClient(plan = 'free') {
    const client = await stack.newClient({ plan, phone: false });
    const registered = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: `device-${client.clientId}` });
    expect(registered.status).toBe(201);
    return { ...client, phoneId: registered.body.phone_id as number, token: registered.body.worker_token as string };
  }

  describe('POST /smsapi/register-phone', () => {
    it('answers the phone and a worker token; the same device again gets a fresh token and the old one stops working', async () => {
      const client = await stack.newClient({ phone: false });
      const first = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: 'abc' });
      expect(first.status).toBe(201);
      expect(Object.keys(first.body)).toEqual(['ok', 'phone_id', 'worker_token']);
      expect(first.body.worker_token).toMatch(/^smsq_wkr_/);
      const again = await registerPhone(stack, client.apiKey, { name: 'Pixel', device_id: 'abc' });
      expect(again.body.phone_id).toBe(first.body.phone_id);
      expect(again.body.worker_token).not.toBe(first.body.worker_token);
      expect((await workerApi(stack, first.body.worker_token).poll()).status).toBe(401);
      expect((await workerApi(stack, again.body.worker_token).poll()).status).toBe(200);
    });

    it("refuses a phone over the plan's limit with 403 phone_limit_reached", async () => {
      const client = await stack.newClient({ phone: false });
      for (const device of ['one', 'two']) expect((await registerPhone(stack, client.apiKey, { name: device, device_id: device })).status).toBe(201);
      const third = await registerPhone(stack, client.apiKey, { name: 'three', device_id: 'three' });
      expect(third.status).toBe(403);
      expect(third.body.error).toBe('phone_limit_reached');
      expect((await registerPhone(stack, client.apiKey, { name: 'two', device_id: 'two' })).status).toBe(201);
    });

    it('needs an API key and a name', async () => {
      const client = await stack.newClient({ phone: false });
      expect((await stack.http('POST', '/smsapi/register-phone', { body: { name: 'x' } })).status).toBe(401);
      expect((await registerPhone(stack, client.apiKey, {})).body.error).toBe('invalid_request');
      const nul = await registerPhone(stack, client.apiKey, { name: 'a\u0000b' });
      expect(nul.status).toBe(400);
      expect(nul.body.error).toBe('invalid_request');
    });
  });

  describe('GET /smsapi/pending-tasks', () => {
    it('answers {} when idle, and refuses API keys and missing or revoked tokens with 401', async () => {
      const client = await pairedClient();
      const api = workerApi(stack, client.token);
      expect(await api.poll()).toMatchObject({ status: 200, body: {} });
      expect((await stack.http('GET', '/smsapi/pending-tasks', { headers: { 'x-api-key': client.apiKey } })).status).toBe(401);
      expect((await stack.http('GET', '/smsapi/pending-tasks')).status).toBe(401);
      expect((await stack.http('GET', '/smsapi/pending-tasks', { headers: { 'x-worker-token': client.token, 'x-api-key': client.apiKey } })).status).toBe(401);
    });

    it("claims the phone's own task with the contract's fields, and never another phone's", async () => {
      const mine = await pairedClient();
      const other = await pairedClient();
      const created = await stack.createTask(mine.apiKey, SMS);
      expect(await workerApi(stack, other.token).poll()).toMatchObject({ status: 200, body: {} });
      const claimed = await workerApi(stack, mine.token).poll();
      expect(claimed.status).toBe(200);
      expect(Object.keys(claimed.body)).toEqual(['id', 'recipient', 'message', 'phone_id', 'client_id', 'scheduled_at', 'gateway_url', 'attempt', 'claim_expires_at']);
      expect(claimed.body).toMatchObject({ id: created.body.id, recipient: SMS.recipient, message: SMS.message, phone_id: mine.phoneId, client_id: mine.clientId, scheduled_at: created.body.scheduled_at, gateway_url: null, attempt: 1 });
      expect(Date.parse(claimed.body.claim_expires_at)).toBeGreaterThan(Date.now() + 250_000);
      expect(await workerApi(stack, mine.token).poll()).toMatchObject({ body: {} });
      const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': mine.apiKey } });
      expect(read.body).toMatchObject({ status: 'claimed', attempts: 1 });
    });

    it('answers 403 phone_disabled to a disabled phone', async () => {
      const client = await pairedClient();
      await stack.adminOk('phone', 'disable', '--phone', String(client.phoneId));
      const answer = await workerApi(stack, client.token).poll();
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('phone_disabled');
    });

    it('gives each of 50 tasks to exactly one of 10 concurrent pollers', async () => {
      const client = await pairedClient('starter');
      const created = await Promise.all(Array.from({ length: 50 }, () => stack.createTask(client.apiKey, SMS)));
      expect(created.every((answer) => answer.status === 201)).toBe(true);
      const api = workerApi(stack, client.token);
      const claimedBy = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const ids: number[] = [];
          for (;;) {
            const answer = await api.poll();
            if (answer.body.id === undefined) return ids;
            ids.push(answer.body.id);
          }
        }),
      );
      const all = claimedBy.flat();
      expect(all).toHaveLength(50);
      expect(new Set(all)).toEqual(new Set(created.map((answer) => answer.body.id)));
    });

    it('keeps a scheduled task invisible until it is due, and a long poll answers when it comes due', async () => {
      const client = await pairedClient();
      // Due in 7–8 s (local times are to the second): time for the create and a first poll to see it invisible, even on a busy machine.
      const dueAt = localNow('Europe/Belgrade', new Date(Date.now() + 8_000));
      const created = await stack.createTask(client.apiKey, { ...SMS, scheduled_at: dueAt });
      const api = workerApi(stack, client.token);
      expect((await api.poll()).body).toEqual({});
      const started = Date.now();
      const claimed = await api.poll(25);
      expect(claimed.body.id).toBe(created.body.id);
      // When it came due, not when the 25 s wait ended.
      expect(Date.now() - started).toBeLessThan(16_000);
    });

    it('answers a waiting long poll as soon as a task is queued', async () => {
      const client = await pairedClient();
      const api = workerApi(stack, client.token);
      const polling = api.poll(20);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const created = await stack.createTask(client.apiKey, SMS);
      const queuedAt = Date.now();
      const claimed = await polling;
      expect(claimed.body.id).toBe(created.body.id);
      // Soon after it was queued, not when the 20 s wait ended.
      expect(Date.now() - queuedAt).toBeLessThan(10_000);
    });

    it('holds an idle long poll for the time asked', async () => {
      const client = await pairedClient();
      const started = Date.now();
      expect((await workerApi(stack, client.token).poll(2)).body).toEqual({});
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    });
  });

  describe('POST /smsapi/task-status', () => {
    it('records sent; repeating it is harmless; another final status is 409; another token is 404', async () => {
      const client = await pairedClient();
      const { token: otherToken } = await pairedClient();
      const created = await stack.createTask(client.apiKey, SMS);
      const api = workerApi(stack, client.token);
      await api.poll();
      expect((await workerApi(stack, otherToken).report(created.body.id, 'sent')).status).toBe(404);
      const sent = await api.report(created.body.id, 'sent');
      expect(sent).toMatchObject({ status: 200, body: { ok: true, id: created.body.id, status: 'sent' } });
      expect((await api.report(created.body.id, 'sent')).status).toBe(200);
      const conflict = await api.report(created.body.id, 'failed');
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toBe('conflict');
      const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(read.body).toMatchObject({ status: 'sent', attempts: 1, error: null, failed_at: null });
      expect(Date.parse(read.body.sent_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(await stack.credits(client.clientId)).toBe(29);
    });

    it('with "next": true, claims the next due task in the same answer, and {} when none is due', async () => {
      const client = await pairedClient();
      const first = await stack.createTask(client.apiKey, SMS);
      const second = await stack.createTask(client.apiKey, { ...SMS, message: 'the second' });
      const api = workerApi(stack, client.token);
      expect((await api.poll()).body.id).toBe(first.body.id);

      const reported = await stack.http('POST', '/smsapi/task-status', { headers: { 'x-worker-token': client.token }, body: { id: first.body.id, status: 'sent', next: true } });
      const last = await stack.http('POST', '/smsapi/task-status', { headers: { 'x-worker-token': client.token }, body: { id: second.body.id, status: 'sent', next: true } });

      expect(reported).toMatchObject({ status: 200, body: { ok: true, id: first.body.id, status: 'sent', next: { id: second.body.id, message: 'the second', recipient: '+381641234567', attempt: 1, claim_expires_at: expect.any(String) } } });
      expect(last).toMatchObject({ status: 200, body: { ok: true, id: second.body.id, status: 'sent', next: {} } });
      const read = await stack.http('GET', `/smsapi/tasks/${second.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(read.body).toMatchObject({ status: 'sent', attempts: 1 });
      // Without it, the answer is as it always was.
      expect(Object.keys((await api.report(first.body.id, 'sent')).body)).toEqual(['ok', 'id', 'status']);
    });

    it('refunds a failed task exactly once, however often it is reported', async () => {
      const client = await pairedClient();
      const created = await stack.createTask(client.apiKey, SMS);
      const api = workerApi(stack, client.token);
      await api.poll();
      const reports = await Promise.all(Array.from({ length: 5 }, () => api.report(created.body.id, 'failed', 'no signal')));
      expect(reports.every((answer) => answer.status === 200)).toBe(true);
      await eventually(async () => expect(await stack.credits(client.clientId)).toBe(30));
      const read = await stack.http('GET', `/smsapi/tasks/${created.body.id}`, { headers: { 'x-api-key': client.apiKey } });
      expect(read.body).toMatchObject({ status: 'failed', error: 'no signal' });
      expect(await stack.credits(client.clientId)).toBe(30);
    });

    it('answers 404 for a task that was never claimed and 400 for a bad body', async () => {
      const client = await pairedClient();
      const created = await stack.createTask(client.apiKey, SMS);
      const api = workerApi(stack, client.token);
      expect((await api.report(created.body.id, 'sent')).status).toBe(404);
      expect((await api.report(999_999, 'sent')).status).toBe(404);
      expect((await api.report(created.body.id, 'read')).body.error).toBe('invalid_request');
    });
  });

  describe('POST /smsapi/inbound', () => {
    it("stores a reply once for the phone's client, however often it is synced", async () => {
      const client = await pairedClient();
      const other = await pairedClient();
      const api = workerApi(stack, client.token);
      const reply = { from: '+381 64 765 4321', message: 'Thanks!', received_at: '2026-11-22 10:00:00', external_id: 'sms-1' };
      expect(await api.inbound(reply)).toMatchObject({ status: 201, body: { ok: true, stored: 1, duplicates: 0 } });
      expect(await api.inbound({ messages: [reply, { ...reply, external_id: 'sms-2', message: 'Second' }, { ...reply, external_id: 'sms-2', message: 'Second' }] })).toMatchObject({
        status: 201,
        body: { stored: 1, duplicates: 2 },
      });
      const page = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: client.clientId, page: 1, pageSize: 10 });
      expect(page.total).toBe(2);
      expect(page.items.map((item) => item.message)).toEqual(['Second', 'Thanks!']);
      expect(page.items[0]).toMatchObject({ from: '+381647654321', phoneId: client.phoneId, receivedAt: '2026-11-22T09:00:00.000Z' });
      const others = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: other.clientId, page: 1, pageSize: 10 });
      expect(others.total).toBe(0);
    });

    it('refuses an API key and a malformed body', async () => {
      const client = await pairedClient();
      expect((await stack.http('POST', '/smsapi/inbound', { headers: { 'x-api-key': client.apiKey }, body: { from: '+381641234567', message: 'x' } })).status).toBe(401);
      expect((await workerApi(stack, client.token).inbound({ messages: [{ message: 'no sender' }] })).body.error).toBe('invalid_request');
    });
  });
});
