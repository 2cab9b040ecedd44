import { eventually } from '@smsq/testing';
import { constantTimeEqual } from '@smsq/platform';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'tell me when it is sent' };

interface Delivery {
  signature: string;
  body: string;
  event: { id: string; type: string; created_at: string; data: Record<string, any> };
}

/** The README's verification, as a receiver writes it: any v1 is HMAC-SHA256 over "<t>.<raw body>", compared in constant time, and t is under five minutes old. */
function verified(secret: string, signatureHeader: string, rawBody: string): boolean {
  const parts = signatureHeader.split(',').map((part) => part.split('=', 2) as [string, string]);
  const t = parts.find(([name]) => name === 't')?.[1];
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  const signed = parts.some(([name, value]) => name === 'v1' && constantTimeEqual(value, expected));
  return signed && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

describe('status webhooks, end to end', () => {
  let stack: Stack;
  let server: Server;
  let receiverUrl: string;
  const deliveries: Delivery[] = [];
  /** While true, the receiver is "down": it answers 503, and counts the deliveries it turned away. */
  let outage = false;
  let turnedAway = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (outage) {
          turnedAway += 1;
          return void response.writeHead(503).end();
        }
        deliveries.push({ signature: String(request.headers['smsq-signature']), body, event: JSON.parse(body) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/smsq-events`;
    stack = await Stack.start({ profile: 'A', env: { SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const webhooks = (apiKey: string, method: string, path = '', body?: unknown) => stack.http(method, `/smsapi/webhooks${path}`, { headers: { 'x-api-key': apiKey }, body });

  it('registers, lists and deletes a client’s endpoints, showing the secret once, and refuses what it cannot use', async () => {
    const client = await stack.newClient();
    const other = await stack.newClient();

    const created = await webhooks(client.apiKey, 'POST', '', { url: receiverUrl, events: ['task.sent', 'task.failed', 'task.sent'] });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), url: receiverUrl, events: ['task.sent', 'task.failed'], active: true, disabled_reason: null, created_at: expect.any(String), secret: expect.stringMatching(/^whsec_/) });
    const { secret, ...shown } = created.body;
    expect(secret).not.toBe('');
    expect((await webhooks(client.apiKey, 'GET')).body).toEqual({ items: [shown] });
    expect((await webhooks(other.apiKey, 'GET')).body).toEqual({ items: [] });
    expect((await webhooks(other.apiKey, 'DELETE', `/${created.body.id}`)).status).toBe(404);
    for (const body of [{ url: 'ftp://example.com/x', events: ['task.sent'] }, { url: receiverUrl, events: [] }, { url: receiverUrl, events: ['task.lost'] }, { events: ['task.sent'] }, { url: 'https://user:pw@example.com/', events: ['task.sent'] }]) {
      const refused = await webhooks(client.apiKey, 'POST', '', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
    }
    expect((await webhooks(client.apiKey, 'POST', `/${created.body.id}/enable`)).body).toEqual(shown);
    expect((await webhooks(client.apiKey, 'DELETE', `/${created.body.id}`)).body).toEqual({ ok: true });
    expect((await webhooks(client.apiKey, 'GET')).body).toEqual({ items: [] });
    expect((await stack.http('GET', '/smsapi/webhooks')).status).toBe(401);
  });

  it('tells the receiver each change of a task once, signed, and loses none across a receiver outage and a kill of dispatch', async () => {
    const client = await clientWithPairedPhone(stack);
    const { secret } = (await webhooks(client.apiKey, 'POST', '', { url: receiverUrl, events: ['task.sent', 'task.delivered', 'task.failed', 'task.cancelled'] })).body;
    const ofClient = () => deliveries.filter((delivery) => delivery.event.data['client_id'] === client.clientId);

    const sent = await stack.createTask(client.apiKey, SMS);
    expect((await client.worker.poll()).body.id).toBe(sent.body.id);
    expect((await client.worker.report(sent.body.id, 'sent')).status).toBe(200);
    await eventually(async () => expect(ofClient().map((delivery) => delivery.event.type)).toEqual(['task.sent']), { timeoutMs: 15_000, intervalMs: 100 });
    const [first] = ofClient();
    expect(verified(secret, first!.signature, first!.body)).toBe(true);
    expect(verified(`${secret}x`, first!.signature, first!.body)).toBe(false);
    expect(first!.event).toEqual({ id: expect.any(String), type: 'task.sent', created_at: expect.any(String), data: expect.objectContaining({ id: sent.body.id, status: 'sent', recipient: SMS.recipient, message: SMS.message }) });

    outage = true;
    const failing = await stack.createTask(client.apiKey, SMS);
    expect((await client.worker.poll()).body.id).toBe(failing.body.id);
    expect((await client.worker.report(failing.body.id, 'failed', 'no signal')).status).toBe(200);
    const cancelled = await stack.createTask(client.apiKey, { ...SMS, scheduled_at: '2099-01-01 10:00' });
    expect((await stack.http('POST', `/smsapi/tasks/${cancelled.body.id}/cancel`, { headers: { 'x-api-key': client.apiKey } })).status).toBe(200);
    expect((await client.worker.report(sent.body.id, 'delivered')).status).toBe(200);
    await eventually(() => expect(turnedAway).toBeGreaterThanOrEqual(3), { timeoutMs: 15_000, intervalMs: 100 });
    expect(ofClient()).toHaveLength(1);
    await stack.kill('dispatch', 'SIGKILL');
    outage = false;
    await stack.restart('dispatch');

    // A delivery that was being sent when dispatch died waits out its lease (60 s) before it is sent again.
    await eventually(() => expect(new Set(ofClient().map((delivery) => delivery.event.id)).size).toBe(4), { timeoutMs: 100_000, intervalMs: 250 });
    const byType = Object.fromEntries(ofClient().map((delivery) => [delivery.event.type, delivery.event.data]));
    expect(byType['task.failed']).toMatchObject({ id: failing.body.id, status: 'failed', error: 'no signal' });
    expect(byType['task.cancelled']).toMatchObject({ id: cancelled.body.id, status: 'failed', error: 'cancelled' });
    expect(byType['task.delivered']).toMatchObject({ id: sent.body.id, status: 'sent', delivered_at: expect.any(String) });
    expect(ofClient().every((delivery) => verified(secret, delivery.signature, delivery.body))).toBe(true);

    // A rotated secret: for the grace period both the new and the old one verify the next event.
    const rotated = await webhooks(client.apiKey, 'POST', `/${(await webhooks(client.apiKey, 'GET')).body.items[0].id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ secret: expect.stringMatching(/^whsec_/), previous_secret_valid_until: expect.any(String) });
    expect(rotated.body.secret).not.toBe(secret);
    const afterRotation = await stack.createTask(client.apiKey, SMS);
    expect((await client.worker.poll()).body.id).toBe(afterRotation.body.id);
    expect((await client.worker.report(afterRotation.body.id, 'sent')).status).toBe(200);
    const next = await eventually(
      () => {
        const found = ofClient().find((delivery) => delivery.event.data['id'] === afterRotation.body.id);
        expect(found).toBeDefined();
        return found!;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect([verified(rotated.body.secret, next.signature, next.body), verified(secret, next.signature, next.body), verified('whsec_other', next.signature, next.body)]).toEqual([true, true, false]);
    // At least once: a repeat carries the same event id and the same bytes.
    const bodies = new Map<string, Set<string>>();
    for (const delivery of ofClient()) bodies.set(delivery.event.id, (bodies.get(delivery.event.id) ?? new Set()).add(delivery.body));
    expect([...bodies.values()].every((seen) => seen.size === 1)).toBe(true);
  }, 180_000);

  it('tells the receiver of a reply, with the task it answers (the latest sent to that number), once however often the phone syncs it', async () => {
    const client = await clientWithPairedPhone(stack);
    const { secret } = (await webhooks(client.apiKey, 'POST', '', { url: receiverUrl, events: ['message.received'] })).body;
    const asked = await stack.createTask(client.apiKey, { recipient: '+381647770001', message: 'Coming tomorrow?' });
    expect((await client.worker.poll()).body).toMatchObject({ id: asked.body.id });
    expect((await client.worker.report(asked.body.id as number, 'sent')).status).toBe(200);
    // Queued, never sent: a reply cannot answer it.
    await stack.createTask(client.apiKey, { recipient: '+381647770001', message: 'And on Friday?', scheduled_at: '2030-01-15 09:00:00' });
    const reply = { from: '+381647770001', message: 'Yes, at ten', external_id: `reply-${client.clientId}` };

    expect((await client.worker.inbound(reply)).body).toMatchObject({ stored: 1, duplicates: 0 });
    // Synced again: stored once, so told once.
    expect((await client.worker.inbound(reply)).body).toMatchObject({ stored: 0, duplicates: 1 });

    const ofReply = () => deliveries.filter((delivery) => delivery.event.type === 'message.received' && delivery.event.data['message'] === reply.message);
    await eventually(() => expect(ofReply()).toHaveLength(1), { timeoutMs: 15_000, intervalMs: 100 });
    const [received] = ofReply();
    expect(verified(secret, received!.signature, received!.body)).toBe(true);
    expect(received!.event.data).toEqual({ id: expect.any(Number), from: reply.from, message: reply.message, encrypted: false, received_at: expect.any(String), phone_id: client.phoneId, in_reply_to_task_id: asked.body.id });
  });
});
