import { openApiDocument } from '@smsq/contracts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblems } from './support/api-document.js';
import { launchBrowser } from './support/browser.js';
import { Stack } from './support/stack.js';

/** Set to a folder (docs/screenshots) to keep a picture of the reference page. */
const SCREENSHOTS = process.env['SMSQ_SCREENSHOTS_DIR'];
const SMS = { recipient: '+381641234567', message: 'typed' };
const CLIENT_ENTRY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'libs', 'client', 'src', 'index.ts');

/** The typed client as a browser script, bundled as a web app would bundle it. */
async function clientForBrowsers(): Promise<string> {
  const bundle = await rolldown({ input: CLIENT_ENTRY, platform: 'browser', resolve: { conditionNames: ['@smsq/source', 'browser', 'import', 'default'] }, logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'iife', name: 'Smsq' });
  await bundle.close();
  return output[0].code;
}

describe('the API described: OpenAPI document, reference page and typed client', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves the document the code builds, for the profile it runs', async () => {
    const served = await stack.http('GET', '/smsapi/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('application/json');
    expect(served.body).toEqual(openApiDocument({ profile: 'A' }));
    expect(served.body.openapi).toBe('3.1.0');
    const typed = await stack.client({ apiKey: 'not needed' }).GET('/smsapi/openapi.json');
    expect(typed.data).toEqual(served.body);
  });

  it('serves a reference page whose assets come from the gateway itself', async () => {
    const page = await stack.http('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const assets = [...String(page.body).matchAll(/(?:href|src)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toEqual(['/docs/favicon-32x32.png', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/reference.js']);
    for (const asset of assets) {
      const answer = await fetch(`${stack.baseUrl}${asset}`);
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /text\/css/ : asset.endsWith('.png') ? /image\/png/ : /text\/javascript/);
      expect((await answer.arrayBuffer()).byteLength, asset).toBeGreaterThan(50);
    }
    expect((await stack.http('GET', '/docs/package.json')).status).toBe(404);
    expect((await stack.http('GET', '/docs/..%2Fpackage.json')).status).toBe(404);

    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const outside: string[] = [];
      const notFound: string[] = [];
      const consoleErrors: string[] = [];
      tab.on('request', (request) => {
        if (!request.url().startsWith(stack.baseUrl)) outside.push(request.url());
      });
      tab.on('response', (response) => {
        if (response.status() >= 400) notFound.push(`${response.status()} ${response.url()}`);
      });
      tab.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await tab.goto(`${stack.baseUrl}/docs`);
      await tab.getByText('Queue one SMS').first().waitFor({ timeout: 15_000 });
      expect(await tab.getByText('Cancel a task no worker has been handed yet').count()).toBeGreaterThan(0);
      // The icon the page names, not a /favicon.ico nobody serves.
      await tab.waitForLoadState('networkidle');
      expect(outside).toEqual([]);
      expect(notFound).toEqual([]);
      expect(consoleErrors).toEqual([]);
      if (SCREENSHOTS) await tab.screenshot({ path: join(SCREENSHOTS, 'api-reference.png') });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('walks a client and its phone through every operation with the typed client', async () => {
    const client = await stack.newClient({ phone: false });
    const smsq = stack.client({ apiKey: client.apiKey });

    const paired = await smsq.POST('/smsapi/register-phone', { body: { name: 'typed phone', device_id: `typed-${client.clientId}` } });
    expect(paired.response.status).toBe(201);
    const phone = stack.client({ workerToken: paired.data!.worker_token });
    expect((await phone.POST('/smsapi/phone-health', { body: { battery_percent: 80, charging: true } })).data).toEqual({ ok: true });

    const created = await smsq.POST('/smsapi/create-task', { body: SMS, params: { header: { 'Idempotency-Key': `typed-${client.clientId}` } } });
    expect(created.data).toMatchObject({ ok: true, status: 'pending', phone_id: paired.data!.phone_id, charged: true });
    const replayed = await smsq.POST('/smsapi/create-task', { body: SMS, params: { header: { 'Idempotency-Key': `typed-${client.clientId}` } } });
    expect(replayed.data).toEqual(created.data);

    const many = await smsq.POST('/smsapi/create-tasks', { body: { tasks: [{ ...SMS, ttl: 3600 }, { ...SMS, recipient: 'nobody' }] } });
    expect(many.data!.results.map((result) => result.ok)).toEqual([true, false]);

    const claimed = await phone.GET('/smsapi/pending-tasks', { params: { query: { wait: 1 } } });
    expect(claimed.data).toMatchObject({ id: created.data!.id, attempt: 1 });
    const reported = await phone.POST('/smsapi/task-status', { body: { id: created.data!.id, status: 'sent', next: true } });
    expect(reported.data).toMatchObject({ ok: true, id: created.data!.id, status: 'sent', next: { attempt: 1 } });
    const second = reported.data!.next as { id: number };

    const cancelledTooLate = await smsq.POST('/smsapi/tasks/{id}/cancel', { params: { path: { id: second.id } } });
    expect(cancelledTooLate.error).toMatchObject({ error: 'conflict' });
    expect((await phone.POST('/smsapi/task-status', { body: { id: second.id, status: 'failed', error: 'no signal' } })).data).toMatchObject({ status: 'failed' });

    const task = await smsq.GET('/smsapi/tasks/{id}', { params: { path: { id: created.data!.id } } });
    expect(task.data).toMatchObject({ status: 'sent', recipient: SMS.recipient, segments: 1 });
    const page = await smsq.GET('/smsapi/tasks', { params: { query: { limit: 1 } } });
    expect(page.data!.items).toHaveLength(1);
    const next = await smsq.GET('/smsapi/tasks', { params: { query: { limit: 1, cursor: page.data!.next_cursor! } } });
    expect(next.data!.items[0]!.id).not.toBe(page.data!.items[0]!.id);

    const sendWindow = { days: ['mon', 'tue'] as Array<'mon' | 'tue'>, from: '08:00', to: '21:00' };
    const rules = await smsq.PATCH('/smsapi/sending-rules', { body: { routing_mode: 'sticky', sticky_days: 14, send_windows: [sendWindow] } });
    expect(rules.data).toMatchObject({ routing_mode: 'sticky', sticky_days: 14, send_windows: [sendWindow], time_zone: 'Europe/Belgrade' });
    expect((await smsq.PATCH('/smsapi/sending-rules', { body: { send_windows: [] } })).data).toMatchObject({ routing_mode: 'sticky', send_windows: [], window_open: true, window_opens_at: null });
    expect((await smsq.GET('/smsapi/sending-rules')).data).toMatchObject({ routing_mode: 'sticky', sticky_days: 14 });
    const limited = await smsq.PATCH('/smsapi/phones/{id}', { params: { path: { id: paired.data!.phone_id } }, body: { monthly_recipients: 150, jitter: 20, sims: 2 } });
    expect(limited.data).toMatchObject({ id: paired.data!.phone_id, monthly_recipients: 150, jitter: 20, sims: 2 });
    const resumed = await smsq.POST('/smsapi/phones/{id}/resume', { params: { path: { id: paired.data!.phone_id } } });
    expect(resumed.data).toMatchObject({ id: paired.data!.phone_id, paused_until: null, pause_reason: null });
    expect((await smsq.GET('/smsapi/phones')).data!.phones).toEqual([expect.objectContaining({ id: paired.data!.phone_id, monthly_recipients: 150, recipients_this_month: expect.any(Number), parts_today: expect.any(Number) })]);

    const stored = await phone.POST('/smsapi/inbound', { body: { messages: [{ from: SMS.recipient, message: 'thanks', external_id: `typed-${client.clientId}` }] } });
    expect(stored.data).toEqual({ ok: true, stored: 1, duplicates: 0 });

    const endpoint = await smsq.POST('/smsapi/webhooks', { body: { url: 'http://127.0.0.1:9/events', events: ['task.sent', 'message.received'] } });
    expect(endpoint.response.status).toBe(201);
    expect(endpoint.data!.secret).toMatch(/\S{20,}/);
    const rotated = await smsq.POST('/smsapi/webhooks/{id}/rotate-secret', { params: { path: { id: endpoint.data!.id } } });
    expect(rotated.data!.secret).not.toBe(endpoint.data!.secret);
    expect((await smsq.POST('/smsapi/webhooks/{id}/enable', { params: { path: { id: endpoint.data!.id } } })).data).toMatchObject({ active: true });
    expect((await smsq.GET('/smsapi/webhooks')).data!.items.map((item) => item.id)).toEqual([endpoint.data!.id]);
    expect((await smsq.DELETE('/smsapi/webhooks/{id}', { params: { path: { id: endpoint.data!.id } } })).data).toEqual({ ok: true });

    const refused = await stack.client({ apiKey: 'sk_wrong' }).GET('/smsapi/tasks');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ error: 'unauthorized' });
  }, 60_000);

  it('runs in a browser: a page queues and reads a task with the typed client', async () => {
    const client = await stack.newClient();
    const script = await clientForBrowsers();
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      await tab.goto(`${stack.baseUrl}/docs`);
      await tab.addScriptTag({ content: script });
      const answers = await tab.evaluate(async ({ apiKey, sms }) => {
        const smsq = (window as any).Smsq.createSmsqClient({ baseUrl: location.origin, apiKey });
        const created = await smsq.POST('/smsapi/create-task', { body: sms });
        const read = await smsq.GET('/smsapi/tasks/{id}', { params: { path: { id: created.data.id } } });
        return { created: created.response.status, read: read.data };
      }, { apiKey: client.apiKey, sms: SMS });
      expect(answers.created).toBe(201);
      expect(answers.read).toMatchObject({ status: 'pending', recipient: SMS.recipient, message: SMS.message });
      expect(script).not.toMatch(/node:|require\(/);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('holds answers to the document: the check refuses what the document does not allow', () => {
    const headers = new Headers();
    const task = { ok: true, id: 1, status: 'pending', phone_id: 1, client_id: 1, charged: true, scheduled_at: '2026-05-01 09:30:00', credits_remaining: 3 };
    expect(answerProblems('POST', '/smsapi/create-task', 201, headers, task)).toEqual([]);
    expect(answerProblems('POST', '/smsapi/create-task', 201, headers, { ...task, surprise: 1 })[0]).toContain('must NOT have additional properties');
    expect(answerProblems('POST', '/smsapi/create-task', 201, headers, { ...task, scheduled_at: '2026-05-01T09:30' })[0]).toContain('must match pattern');
    expect(answerProblems('POST', '/smsapi/create-task', 200, headers, task)[0]).toContain('does not list');
    expect(answerProblems('POST', '/smsapi/create-task', 402, headers, { error: 'conflict', detail: 'x' })[0]).toContain('whose status is 409');
    expect(answerProblems('POST', '/smsapi/create-task', 429, headers, { error: 'rate_limited', detail: 'x' })).toEqual(['429 without a Retry-After in seconds']);
    expect(answerProblems('POST', '/smsapi/create-task', 500, headers, { message: 'boom' })[0]).toContain("must have required property 'error'");
    expect(answerProblems('GET', '/smsapi/create-task', 405, new Headers({ allow: 'POST' }), { error: 'method_not_allowed', detail: 'x' })).toEqual([]);
    expect(answerProblems('GET', '/smsapi/nothing-here', 200, headers, {})[0]).toContain('expected 404');
    expect(answerProblems('GET', '/healthz', 200, headers, 'anything')).toEqual([]);
  });
});
