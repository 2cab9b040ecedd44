import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedStack } from './support/shared-stack.js';
import type { Stack } from './support/stack.js';
import { clientWithPairedPhone } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'changed my mind' };

describe('a client’s own tasks: cancel, expiry and list', () => {
  let stack: Stack;

  beforeAll(() => {
    stack = sharedStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const clientWithPhone = () => clientWithPairedPhone(stack);

  const cancel = (apiKey: string, id: number | string) => stack.http('POST', `/smsapi/tasks/${id}/cancel`, { headers: { 'x-api-key': apiKey } });

  it('ends a queued task failed with the error cancelled, gives its credit back once, and never hands it to the phone', async () => {
    const client = await clientWithPhone();
    const before = await stack.credits(client.clientId);
    const queued = await stack.createTask(client.apiKey, SMS);
    expect(queued.status).toBe(201);

    const answer = await cancel(client.apiKey, queued.body.id);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: queued.body.id, status: 'failed', error: 'cancelled', failed_at: expect.any(String) });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before), { timeoutMs: 15_000, intervalMs: 100 });
    const again = await cancel(client.apiKey, queued.body.id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', detail: expect.any(String) });
    expect((await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } })).body).toMatchObject({ status: 'failed', error: 'cancelled' });
    expect(await stack.credits(client.clientId)).toBe(before);
    // It was due when it was cancelled: the phone's next poll finds nothing.
    expect((await client.worker.poll()).body).toEqual({});
  });

  it('answers 409 for a task a phone has claimed, and 404 for an id the client does not have', async () => {
    const client = await clientWithPhone();
    const due = await stack.createTask(client.apiKey, SMS);
    expect((await client.worker.poll()).body.id).toBe(due.body.id);
    const before = await stack.credits(client.clientId);

    const claimed = await cancel(client.apiKey, due.body.id);

    expect(claimed.status).toBe(409);
    expect(claimed.body.error).toBe('conflict');
    expect((await stack.http('GET', `/smsapi/tasks/${due.body.id}`, { headers: { 'x-api-key': client.apiKey } })).body.status).toBe('claimed');
    for (const id of [due.body.id + 100_000, 'abc', '0']) expect((await cancel(client.apiKey, id)).status).toBe(404);
    expect(await stack.credits(client.clientId)).toBe(before);
  });

  it('answers 401 without a valid API key', async () => {
    expect((await stack.http('POST', '/smsapi/tasks/1/cancel', { headers: { 'x-api-key': 'garbage' } })).status).toBe(401);
  });

  it('lists the client’s own tasks newest first, a page at a time, filtered by status and creation time', async () => {
    const client = await clientWithPhone();
    const other = await clientWithPhone();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await stack.createTask(client.apiKey, { ...SMS, scheduled_at: '2099-01-01 12:00:00' })).body.id);
    await stack.createTask(other.apiKey, SMS);
    expect((await cancel(client.apiKey, ids[1]!)).status).toBe(200);
    const list = (query: string) => stack.http('GET', `/smsapi/tasks${query}`, { headers: { 'x-api-key': client.apiKey } });

    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.items.map((task: { id: number }) => task.id));
      cursor = page.body.next_cursor;
    } while (cursor);

    expect(pages).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    const failed = await list('?status=failed');
    expect(failed.body).toEqual({ items: [expect.objectContaining({ id: ids[1], status: 'failed', error: 'cancelled', recipient: SMS.recipient })], next_cursor: null });
    expect((await list('?since=2099-01-01T00:00:00Z')).body.items).toEqual([]);
    for (const query of ['?status=queued', '?limit=500', '?cursor=abc', '?since=tomorrow']) {
      const refused = await list(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
    }
  });

  it('fails a task not sent within its ttl as expired, refunds it once, and never hands it to the phone', async () => {
    const client = await clientWithPhone();
    const before = await stack.credits(client.clientId);

    const sentAt = Date.now();
    const queued = await stack.createTask(client.apiKey, { ...SMS, message: 'your code is 4711', ttl: 1 });

    expect(queued.status).toBe(201);
    const created = await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } });
    // A second after the create (the clocks are the same machine's, to the millisecond), however long the create took.
    expect(Date.parse(created.body.expires_at)).toBeGreaterThanOrEqual(sentAt + 1_000 - 5);
    expect(Date.parse(created.body.expires_at)).toBeLessThanOrEqual(Date.now() + 1_000);
    const expired = await eventually(
      async () => {
        const task = await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } });
        expect(task.body).toMatchObject({ status: 'failed', error: 'expired', attempts: 0 });
        return task.body;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(expired.failed_at).toEqual(expect.any(String));
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before), { timeoutMs: 15_000, intervalMs: 100 });
    expect((await client.worker.poll()).body).toEqual({});
    expect((await cancel(client.apiKey, queued.body.id)).status).toBe(409);
    expect(await stack.credits(client.clientId)).toBe(before);
  });

  it('hands a task with an expiry out with a claim that lapses no later than it, and checks ttl and expires_at', async () => {
    const client = await clientWithPhone();
    const queued = await stack.createTask(client.apiKey, { ...SMS, expires_at: new Date(Date.now() + 20_000).toISOString() });
    expect(queued.status).toBe(201);
    const expiresAt = (await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': client.apiKey } })).body.expires_at as string;

    const claim = await client.worker.poll();

    expect(claim.body.id).toBe(queued.body.id);
    expect(Date.parse(claim.body.claim_expires_at)).toBe(Date.parse(expiresAt));
    expect((await client.worker.report(queued.body.id, 'sent')).status).toBe(200);

    for (const [body, detail] of [
      [{ ttl: 0 }, 'ttl'],
      [{ ttl: '60' }, 'ttl'],
      [{ ttl: 60, expires_at: '2099-01-01 10:00' }, 'not both'],
      [{ expires_at: '2000-01-01 10:00' }, 'later than'],
      [{ expires_at: 'soon' }, 'YYYY-MM-DD'],
    ] as const) {
      const refused = await stack.createTask(client.apiKey, { ...SMS, ...body });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining(detail) });
    }
  });

  it('keeps an opt-out list through the API: numbers read as recipients, paged, refused in create-tasks in place at no charge, removed, and own words set', async () => {
    const client = await clientWithPhone();
    const auth = { headers: { 'x-api-key': client.apiKey } };
    const optOuts = (body?: unknown, method = 'POST', path = '') => stack.http(method, `/smsapi/opt-outs${path}`, { ...auth, ...(body === undefined ? {} : { body }) });

    const bad = await optOuts({ numbers: ['+381641234500', 'not a number'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_recipient', detail: expect.stringContaining('numbers[1]') });
    expect((await optOuts({ numbers: [] })).body).toMatchObject({ error: 'invalid_request' });
    expect(await optOuts({ numbers: ['+381 64 123 4500', '0641234501', '+381641234502'] })).toMatchObject({ status: 200, body: { ok: true, added: 3, cancelled: 0 } });
    expect((await optOuts({ numbers: ['+381641234500'] })).body).toMatchObject({ added: 0 });

    const first = await stack.http('GET', '/smsapi/opt-outs?limit=2', auth);
    expect(first.body.items).toHaveLength(2);
    const second = await stack.http('GET', `/smsapi/opt-outs?limit=2&cursor=${first.body.next_cursor}`, auth);
    expect([...first.body.items, ...second.body.items].map((item: { number: string }) => item.number).sort()).toEqual(['+381641234500', '+381641234501', '+381641234502']);
    expect(second.body.next_cursor).toBeNull();
    expect((await stack.http('GET', '/smsapi/opt-outs?search=4501', auth)).body.items).toEqual([{ number: '+381641234501', opted_out_at: expect.any(String), source: 'api' }]);
    expect((await stack.http('GET', '/smsapi/opt-outs?limit=0', auth)).body).toMatchObject({ error: 'invalid_request' });

    const before = await stack.credits(client.clientId);
    const bulk = await stack.http('POST', '/smsapi/create-tasks', { ...auth, body: { tasks: [{ recipient: '+381641234501', message: 'hi' }, { recipient: '+381641234599', message: 'hi' }] } });
    expect(bulk.body.results.map((result: { ok: boolean; error?: string }) => result.error ?? result.ok)).toEqual(['recipient_opted_out', true]);
    expect(await stack.credits(client.clientId)).toBe(before - 1);

    expect(await optOuts(undefined, 'DELETE', '/%2B381641234501')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await optOuts(undefined, 'DELETE', '/%2B381641234501')).status).toBe(404);
    expect((await optOuts(undefined, 'DELETE', '/nobody')).body).toMatchObject({ error: 'invalid_recipient' });
    expect((await stack.createTask(client.apiKey, { recipient: '+381641234501', message: 'welcome back' })).status).toBe(201);

    expect((await stack.http('GET', '/smsapi/opt-out-settings', auth)).body).toEqual({ opt_out_words: [], opt_in_words: [], cancel_queued: true });
    expect((await stack.http('PATCH', '/smsapi/opt-out-settings', { ...auth, body: { opt_out_words: ['odjava'], cancel_queued: false } })).body).toEqual({ opt_out_words: ['ODJAVA'], opt_in_words: [], cancel_queued: false });
    expect((await stack.http('PATCH', '/smsapi/opt-out-settings', { ...auth, body: { opt_out_words: ['two words'] } })).body).toMatchObject({ error: 'invalid_request' });
    expect((await stack.http('PATCH', '/smsapi/opt-out-settings', { ...auth, body: { colour: 'red' } })).body).toMatchObject({ error: 'invalid_request' });
  });

  it('saves templates and queues messages from them: placeholders filled from variables, a missing one named, in create-task and create-tasks alike', async () => {
    const client = await clientWithPhone();
    const other = await clientWithPhone();
    const auth = (apiKey: string) => ({ headers: { 'x-api-key': apiKey } });

    const saved = await stack.http('POST', '/smsapi/templates', { ...auth(client.apiKey), body: { name: 'reminder', body: 'Hi {name}, your visit is on {day}. {name}, see you!' } });
    expect(saved).toMatchObject({ status: 201, body: { id: expect.any(Number), name: 'reminder', placeholders: ['name', 'day'] } });
    const id = saved.body.id as number;
    expect((await stack.http('POST', '/smsapi/templates', { ...auth(client.apiKey), body: { name: 'reminder', body: 'again' } })).status).toBe(409);
    expect((await stack.http('POST', '/smsapi/templates', { ...auth(client.apiKey), body: { name: '', body: 'x' } })).body).toMatchObject({ error: 'invalid_request' });
    expect((await stack.http('GET', '/smsapi/templates', auth(client.apiKey))).body.items.map((item: { name: string }) => item.name)).toEqual(['reminder']);

    const queued = await stack.createTask(client.apiKey, { recipient: '+381641234567', template_id: id, variables: { name: 'Ana', day: 'Friday' } });
    expect(queued.status).toBe(201);
    expect((await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, auth(client.apiKey))).body.message).toBe('Hi Ana, your visit is on Friday. Ana, see you!');
    const missing = await stack.createTask(client.apiKey, { recipient: '+381641234567', template_id: id, variables: { name: 'Ana' } });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request', detail: expect.stringContaining('variables.day is missing') } });
    expect((await stack.createTask(other.apiKey, { recipient: '+381641234567', template_id: id, variables: { name: 'Ana', day: 'Friday' } })).body).toMatchObject({ error: 'invalid_request', detail: expect.stringContaining('none of your templates') });

    const bulk = await stack.http('POST', '/smsapi/create-tasks', { ...auth(client.apiKey), body: { tasks: [{ recipient: '+381641234567', template_id: id, variables: { name: 'Bo', day: 'Monday' } }, { recipient: '+381641234567', template_id: id, variables: {} }] } });
    expect(bulk.body.results.map((result: { ok: boolean; error?: string }) => result.error ?? result.ok)).toEqual([true, 'invalid_request']);

    const changed = await stack.http('PUT', `/smsapi/templates/${id}`, { ...auth(client.apiKey), body: { name: 'reminder', body: 'Bye {name}' } });
    expect(changed.body).toMatchObject({ body: 'Bye {name}', placeholders: ['name'] });
    expect((await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, auth(client.apiKey))).body.message).toBe('Hi Ana, your visit is on Friday. Ana, see you!');
    expect((await stack.http('GET', `/smsapi/templates/${id}`, auth(other.apiKey))).status).toBe(404);
    expect((await stack.http('DELETE', `/smsapi/templates/${id}`, auth(other.apiKey))).status).toBe(404);
    expect((await stack.http('DELETE', `/smsapi/templates/${id}`, auth(client.apiKey))).body).toEqual({ ok: true });
    expect((await stack.http('GET', `/smsapi/templates/${id}`, auth(client.apiKey))).status).toBe(404);
  });
});
