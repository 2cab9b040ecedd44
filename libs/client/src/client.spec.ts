import { describe, expect, it } from 'vitest';
import { createSmsqClient, decrypt, encrypt, isSealedMessage, PassphraseKeyring, type SendingRules, type SendingRulesRequest, type TaskPriority } from './index.js';

/** A fetch that records the request and answers `status` with `body`. */
function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const requests: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    requests.push(request);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { fetch, requests };
}

describe('createSmsqClient', () => {
  it('sends the API key, the body as JSON and the Idempotency-Key, and answers the typed body', async () => {
    const created = { ok: true, id: 7, status: 'pending', phone_id: 1, client_id: 2, scheduled_at: '2026-05-01 09:30:00', credits_remaining: 9 } as const;
    const { fetch, requests } = answering(201, created);
    const smsq = createSmsqClient({ baseUrl: 'https://sms.example.com/', apiKey: 'smsq_key_abc', fetch });

    const { data, error } = await smsq.POST('/smsapi/create-task', { body: { recipient: '+381641234567', message: 'hi', ttl: 60 }, params: { header: { 'Idempotency-Key': 'k1' } } });

    expect(error).toBeUndefined();
    expect(data?.credits_remaining).toBe(9);
    const [request] = requests;
    expect(request!.url).toBe('https://sms.example.com/smsapi/create-task');
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('x-api-key')).toBe('smsq_key_abc');
    expect(request!.headers.get('idempotency-key')).toBe('k1');
    expect(request!.headers.get('x-worker-token')).toBeNull();
    expect(await request!.json()).toEqual({ recipient: '+381641234567', message: 'hi', ttl: 60 });
  });

  it('fills path and query parameters, and sends a worker token for the delivery side', async () => {
    const { fetch, requests } = answering(200, {});
    const phone = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', workerToken: 'smsq_wt_x', fetch });
    await phone.GET('/smsapi/pending-tasks', { params: { query: { wait: 25 } } });
    const client = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', fetch });
    await client.GET('/smsapi/tasks/{id}', { params: { path: { id: 42 } } });
    await client.GET('/smsapi/tasks', { params: { query: { status: 'failed', since: '2026-05-01T00:00:00+02:00', limit: 10 } } });

    expect(requests.map((request) => request.url)).toEqual([
      'http://127.0.0.1:3000/smsapi/pending-tasks?wait=25',
      'http://127.0.0.1:3000/smsapi/tasks/42',
      'http://127.0.0.1:3000/smsapi/tasks?status=failed&since=2026-05-01T00%3A00%3A00%2B02%3A00&limit=10',
    ]);
    expect(requests[0]!.headers.get('x-worker-token')).toBe('smsq_wt_x');
  });

  it('lists phones and sets a phone’s SIM limits with PATCH, null removing one', async () => {
    const phone = {
      id: 3, name: 'Office', kind: 'own', state: 'silent', active: true, last_contact_at: '2026-05-01T07:00:00.000Z', last_seen_at: null,
      daily_limit: 500, per_minute: null, monthly_recipients: null, jitter: null, sims: 1, sent_today: 0, parts_today: 0, recipients_this_month: 0,
      paused_until: null, pause_reason: null, waiting_tasks: 2, health: null,
    } as const;
    const { fetch, requests } = answering(200, phone);
    const smsq = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', fetch });

    const { data } = await smsq.PATCH('/smsapi/phones/{id}', { params: { path: { id: 3 } }, body: { daily_limit: 500, per_minute: null } });
    await smsq.GET('/smsapi/phones');

    expect(data?.state).toBe('silent');
    expect(data?.waiting_tasks).toBe(2);
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['PATCH http://127.0.0.1:3000/smsapi/phones/3', 'GET http://127.0.0.1:3000/smsapi/phones']);
    expect(await requests[0]!.json()).toEqual({ daily_limit: 500, per_minute: null });
  });

  it('sets the recipient cap, jitter and SIMs of a phone, and resumes a paused one', async () => {
    const { fetch, requests } = answering(200, { id: 3, paused_until: null, pause_reason: null });
    const smsq = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', fetch });

    await smsq.PATCH('/smsapi/phones/{id}', { params: { path: { id: 3 } }, body: { monthly_recipients: 200, jitter: null, sims: 2 } });
    const { data } = await smsq.POST('/smsapi/phones/{id}/resume', { params: { path: { id: 3 } } });

    expect(data?.pause_reason).toBeNull();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual(['PATCH http://127.0.0.1:3000/smsapi/phones/3', 'POST http://127.0.0.1:3000/smsapi/phones/3/resume']);
    expect(await requests[0]!.json()).toEqual({ monthly_recipients: 200, jitter: null, sims: 2 });
  });

  it('reads and changes the sending rules, and sends a task with priority high', async () => {
    const rules: SendingRules = { routing_mode: 'sticky', sticky_days: 30, send_windows: [{ days: ['mon', 'fri'], from: '22:00', to: '06:00' }], time_zone: 'Europe/Belgrade', window_open: true, window_opens_at: null };
    const { fetch, requests } = answering(200, rules);
    const smsq = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', fetch });
    const change: SendingRulesRequest = { routing_mode: 'sticky', send_windows: rules.send_windows };
    const priority: TaskPriority = 'high';

    const { data } = await smsq.GET('/smsapi/sending-rules');
    await smsq.PATCH('/smsapi/sending-rules', { body: change });
    await smsq.PATCH('/smsapi/sending-rules', { body: { send_windows: null } });
    await smsq.POST('/smsapi/create-task', { body: { recipient: '+381641234567', message: 'Your code is 1234', priority } });

    expect(data?.routing_mode).toBe('sticky');
    expect(requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET http://127.0.0.1:3000/smsapi/sending-rules',
      'PATCH http://127.0.0.1:3000/smsapi/sending-rules',
      'PATCH http://127.0.0.1:3000/smsapi/sending-rules',
      'POST http://127.0.0.1:3000/smsapi/create-task',
    ]);
    expect(await requests[1]!.json()).toEqual({ routing_mode: 'sticky', send_windows: [{ days: ['mon', 'fri'], from: '22:00', to: '06:00' }] });
    expect(await requests[2]!.json()).toEqual({ send_windows: null });
    expect(await requests[3]!.json()).toMatchObject({ priority: 'high' });
  });

  it('reports a failure the phone says never left it, with retry', async () => {
    const { fetch, requests } = answering(200, { ok: true, id: 42, status: 'pending' });
    const phone = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', workerToken: 'smsq_wt_x', fetch });

    const { data } = await phone.POST('/smsapi/task-status', { body: { id: 42, status: 'failed', error: 'radio off', retry: true } });

    expect(data?.status).toBe('pending');
    expect(await requests[0]!.json()).toEqual({ id: 42, status: 'failed', error: 'radio off', retry: true });
  });

  it('reports the carrier refused for volume, with the reason', async () => {
    const { fetch, requests } = answering(200, { ok: true, id: 42, status: 'pending' });
    const phone = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', workerToken: 'smsq_wt_x', fetch });

    await phone.POST('/smsapi/task-status', { body: { id: 42, status: 'failed', error: 'RESULT_ERROR_LIMIT_EXCEEDED', retry: true, reason: 'carrier_volume' } });

    expect(await requests[0]!.json()).toEqual({ id: 42, status: 'failed', error: 'RESULT_ERROR_LIMIT_EXCEEDED', retry: true, reason: 'carrier_volume' });
  });

  it('claims tasks in a batch and reports many at once, claiming the next ones in the same request', async () => {
    const task = { id: 42, recipient: '+381641234567', message: 'hi', phone_id: 3, client_id: 7, scheduled_at: '2026-05-01 09:30:00', gateway_url: null, attempt: 1, claim_expires_at: '2026-05-01T07:35:00.000Z', parts: 1 } as const;
    const claimed = answering(200, { tasks: [task] });
    const phone = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', workerToken: 'smsq_wt_x', fetch: claimed.fetch });
    const { data: batch } = await phone.GET('/smsapi/pending-tasks', { params: { query: { wait: 25, limit: 50 } } });
    expect(batch !== undefined && 'tasks' in batch ? batch.tasks.map((claim) => claim.id) : []).toEqual([42]);
    expect(claimed.requests[0]!.url).toBe('http://127.0.0.1:3000/smsapi/pending-tasks?wait=25&limit=50');

    const reported = answering(200, { results: [{ ok: true, id: 42, status: 'sent' }, { ok: false, error: 'not_found', detail: 'task not found', http_status: 404 }], tasks: [] });
    const reporter = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', workerToken: 'smsq_wt_x', fetch: reported.fetch });
    const { data } = await reporter.POST('/smsapi/task-statuses', { body: { reports: [{ id: 42, status: 'sent' }, { id: 43, status: 'failed', error: 'no signal' }], next: 50 } });

    const [first, second] = data?.results ?? [];
    expect(first?.ok && first.status).toBe('sent');
    expect(second && !second.ok ? second.http_status : undefined).toBe(404);
    expect(data?.tasks).toEqual([]);
    expect(await reported.requests[0]!.json()).toEqual({ reports: [{ id: 42, status: 'sent' }, { id: 43, status: 'failed', error: 'no signal' }], next: 50 });
  });

  it('answers an error body as `error`, with the response for its status and Retry-After', async () => {
    const { fetch } = answering(429, { error: 'rate_limited', detail: 'slow down' }, { 'retry-after': '3' });
    const smsq = createSmsqClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'k', fetch });

    const { data, error, response } = await smsq.GET('/smsapi/webhooks');

    expect(data).toBeUndefined();
    expect(error).toEqual({ error: 'rate_limited', detail: 'slow down' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
  });
});

describe('encrypt and decrypt', () => {
  it('seal a message for create-task that opens back with the same passphrase, and only with it', async () => {
    const sealed = await encrypt('correct horse battery staple', 'Your code is 1234');

    expect(isSealedMessage(sealed)).toBe(true);
    expect(sealed).not.toContain('1234');
    expect(await decrypt('correct horse battery staple', sealed)).toBe('Your code is 1234');
    const other = new PassphraseKeyring('another passphrase');
    await expect(decrypt(other, sealed)).rejects.toMatchObject({ problem: 'cannot_decrypt' });
  });

  it('derive the key of a passphrase once for many messages', async () => {
    const keyring = new PassphraseKeyring('one key for many');
    const first = await encrypt(keyring, 'first');
    const sealed = await Promise.all(['a', 'b', 'c'].map((text) => encrypt(keyring, text)));

    expect(new Set([first, ...sealed].map((text) => text.split('$')[3])).size).toBe(1);
    expect(await Promise.all(sealed.map((text) => decrypt(keyring, text)))).toEqual(['a', 'b', 'c']);
  });
});
