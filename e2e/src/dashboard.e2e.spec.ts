import { WEBHOOK_EVENT_TYPES } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.js';
import { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/** Set to a folder (docs/screenshots) to keep pictures of the main pages. */
const PASSWORD = 'correct horse battery staple';
/** New clients get SMSQ_TIMEZONE's zone; the browser is elsewhere, so a time shown in the browser's zone would show. */
const CLIENT_ZONE = 'Europe/Belgrade';
const BROWSER_ZONE = 'America/New_York';
const LOOPBACK_WARNING = 'a phone cannot reach this address; set DASHBOARD_PUBLIC_API_URL to an address the phone can reach (for example http://192.168.1.10:3000)';

/** "2026-11-23 12:04:05 (Europe/Belgrade)" → the wall-clock time's milliseconds, compared only with another of the same zone. */
function wallClockMs(text: string): number {
  const match = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) \(([^)]+)\)/.exec(text);
  if (!match) throw new Error(`no labelled time in ${JSON.stringify(text)}`);
  expect(match[3]).toBe(CLIENT_ZONE);
  return Date.parse(`${match[1]}T${match[2]}Z`);
}

/** Now in the client's zone, worked out here rather than by the page under test. */
function wallClockNowInClientZone(): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: CLIENT_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date());
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} (${CLIENT_ZONE})`;
}

describe('the dashboard in a real browser, Profile A', () => {
  let stack: Stack;
  let dashboardUrl: string;
  let simUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    // The webhook receiver of a test listens on loopback.
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    [dashboardUrl, simUrl] = await Promise.all([stack.startDashboard(), stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0' })]);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function signUp(): Promise<{ context: BrowserContext; page: Page; email: string }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: BROWSER_ZONE });
    const page = await context.newPage();
    const email = `user-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    await page.goto(`${dashboardUrl}/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    // A sign-up that does not reach the overview says what the page showed instead (an error, a form).
    await page
      .getByRole('heading', { name: 'Overview' })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nthe page at ${page.url()} showed: ${(await page.locator('body').innerText().catch(() => '(unreadable)')).slice(0, 2_000)}`);
      });
    return { context, page, email };
  }

  async function createKey(page: Page): Promise<string> {
    await page.goto(`${dashboardUrl}/keys`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    return (await page.getByTestId('new-api-key').textContent())!.trim();
  }

  it('takes a new client from sign-up to a sent SMS: the key is shown once, the task appears and turns sent', async () => {
    const { context, page } = await signUp();
    expect(await page.getByTestId('credits-remaining').textContent()).toContain('30');

    const apiKey = await createKey(page);
    expect(apiKey).toMatch(/^smsq_key_/);
    const qr = page.getByRole('img', { name: 'Pairing QR code' });
    await qr.waitFor();
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(50);
    expect(await page.getByTestId('pairing-guide').textContent()).toContain('SMS Gateway for Android (SMSGate)');
    expect(await page.getByTestId('pair-command').textContent()).toContain(`"api_key":"${apiKey}"`);
    await screenshot(page, 'api-keys');
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByTestId('new-api-key').count()).toBe(0);
    expect(await page.content()).not.toContain(apiKey);

    const phone = await registerPhone(stack, apiKey, { name: 'Browser test phone', device_id: 'browser', url: simUrl });
    const created = await stack.createTask(apiKey, { recipient: '+381641234567', message: 'Sent from the browser test' });
    expect(created.status).toBe(201);
    await page.goto(`${dashboardUrl}/tasks`);
    await page.getByRole('cell', { name: 'Sent from the browser test' }).waitFor();
    expect(await page.getByTestId(`task-row-${created.body.id}`).textContent()).toContain(`${created.body.scheduled_at} (${CLIENT_ZONE})`);
    // Sent at once: created and scheduled are the same moment, both in the client's zone (not an hour apart).
    await page.goto(`${dashboardUrl}/tasks/${created.body.id}`);
    const createdAt = wallClockMs((await page.locator('.timeline li', { hasText: 'Created' }).textContent())!);
    const scheduledAt = wallClockMs((await page.locator('.timeline li', { hasText: 'Scheduled' }).textContent())!);
    expect(Math.abs(createdAt - scheduledAt)).toBeLessThan(5_000);
    await page.goto(`${dashboardUrl}/tasks`);
    await page.getByRole('cell', { name: 'Sent from the browser test' }).waitFor();
    stack.startWorker(phone.body.worker_token);
    await eventually(async () => {
      await page.reload();
      await page.getByRole('cell', { name: 'sent', exact: true }).waitFor({ timeout: 1_000 });
    }, { timeoutMs: 30_000, intervalMs: 500 });
    await screenshot(page, 'tasks');
    await stack.kill('worker', 'SIGTERM');

    await workerApi(stack, phone.body.worker_token).inbound({ from: '+381 64 123 4567', message: 'Got it, thanks!', external_id: 'browser-1' });
    await page.goto(`${dashboardUrl}/inbox`);
    await page.getByText('Got it, thanks!').waitFor();
    expect(await page.locator('.message-meta').first().textContent()).toContain(`(${CLIENT_ZONE})`);
    await screenshot(page, 'inbox');
    await page.goto(dashboardUrl);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('credits-remaining').textContent()).toContain('29');
    await screenshot(page, 'overview');
    await context.close();
  });

  it('pairs a phone from the Phones page with an API key: SMSGate or Termux, the pair command, the loopback warning, then the first contact', async () => {
    const { context, page } = await signUp();
    await page.goto(`${dashboardUrl}/phones`);
    // The stack's public API is http://127.0.0.1:<port>, as a default installation's is localhost.
    expect(await page.getByTestId('loopback-warning').textContent()).toContain(LOOPBACK_WARNING);

    await page.getByRole('button', { name: 'Create an API key to pair a phone' }).click();
    const apiKey = (await page.getByTestId('new-api-key').textContent())!.trim();
    const guide = page.getByTestId('pairing-guide');
    expect(await guide.textContent()).toContain('SMSGate');
    expect(await guide.getByTestId('loopback-warning').textContent()).toContain(LOOPBACK_WARNING);
    await guide.getByLabel('SMSGate’s Local Server address').fill('http://192.168.1.20:8080');
    await guide.getByLabel('Phone name').fill('Kitchen phone');
    const pairText = (await page.getByTestId('pair-command').textContent())!;
    expect(pairText).toMatch(/^node smsq-worker\.mjs pair '\{"base_url":"http:\/\/127\.0\.0\.1:\d+","api_key":"smsq_key_\w+"\}' --driver smsgate --gateway-url http:\/\/192\.168\.1\.20:8080 --name 'Kitchen phone'$/);
    expect(pairText).toContain(apiKey);
    expect(await page.getByTestId('run-command').textContent()).toContain('SMSGATE_USER=');
    await page.getByRole('img', { name: 'Pairing QR code' }).waitFor();
    await screenshot(page, 'phones-pairing');
    await guide.getByLabel('Termux + Termux:API').check();
    expect(await guide.textContent()).toContain('Termux:API');
    expect(await page.getByTestId('pair-command').textContent()).toContain(`--driver termux --name 'Kitchen phone'`);
    expect(await page.getByTestId('run-command').textContent()).toBe('node smsq-worker.mjs run');

    // One kind of key: the pairing key is an ordinary API key, listed under API keys.
    await page.goto(`${dashboardUrl}/keys`);
    await page.getByRole('row').filter({ hasText: apiKey.slice(0, 13) }).waitFor();

    const phone = await registerPhone(stack, apiKey, { name: 'Kitchen phone', device_id: 'pairing-page' });
    expect(phone.status).toBe(201);
    await page.goto(`${dashboardUrl}/phones`);
    const row = page.getByTestId(`phone-row-${phone.body.phone_id}`);
    expect(await row.getByTestId('last-contact').textContent()).toBe('Not connected yet: start the worker (see pairing)');

    expect((await workerApi(stack, phone.body.worker_token).poll()).status).toBe(200);
    await page.reload();
    const lastContact = (await row.getByTestId('last-contact').textContent())!;
    expect(lastContact).toContain('just now');
    await screenshot(page, 'phones');
    expect(Math.abs(wallClockMs(lastContact) - wallClockMs(wallClockNowInClientZone()))).toBeLessThan(60_000);

    // Disabling asks first: cancelling keeps the phone working, confirming stops it.
    const worker = workerApi(stack, phone.body.worker_token);
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await row.getByText('active').count()).toBe(1);
    expect((await worker.poll()).status).toBe(200);
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable phone' }).click();
    await row.getByText('disabled').waitFor();
    expect((await worker.poll()).body).toMatchObject({ error: 'phone_disabled' });
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByText('active').waitFor();
    await context.close();
  });

  it('sends one SMS, and a CSV to many with placeholders, a preview and per-row errors, charging only what it queued', async () => {
    const { context, page } = await signUp();
    const apiKey = await createKey(page);
    expect((await registerPhone(stack, apiKey, { name: 'sender', device_id: `send-${Date.now()}` })).status).toBe(201);

    await page.goto(`${dashboardUrl}/send`);
    await page.getByLabel('Recipient').fill('064 123 4567');
    await page.getByLabel('Message', { exact: true }).fill('One from the Send page');
    await page.getByRole('button', { name: 'Send (1 credit)' }).click();
    const queued = page.getByRole('status').filter({ hasText: 'is queued for' });
    await queued.waitFor();
    expect(await queued.textContent()).toContain('29 credits left');
    const taskId = Number(/Task #(\d+)/.exec((await queued.textContent())!)![1]);
    expect((await stack.http('GET', `/smsapi/tasks/${taskId}`, { headers: { 'x-api-key': apiKey } })).body).toMatchObject({ recipient: '+381641234567', message: 'One from the Send page', status: 'pending' });

    const csv = 'name;phone;code\nAna;+381641234567;4711\nNobody;not a number;1\n"Marko, Jr.";0641234568;815\n';
    await page.getByLabel('CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Message template').fill('Hi {name}, your code is {code}');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('send-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('2 of 3 rows are ready');
    await preview.getByRole('cell', { name: 'Hi Marko, Jr., your code is 815' }).waitFor();
    await preview.getByText('not a number').first().waitFor();
    await screenshot(page, 'send');
    await page.getByRole('button', { name: 'Send 2 messages (2 credits)' }).click();
    const summary = page.getByTestId('send-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain('2 messages are queued; 27 credits left');

    const listed = await stack.http('GET', '/smsapi/tasks?limit=10', { headers: { 'x-api-key': apiKey } });
    expect((listed.body.items as Array<{ message: string }>).map((task) => task.message).sort()).toEqual(['Hi Ana, your code is 4711', 'Hi Marko, Jr., your code is 815', 'One from the Send page']);
    await context.close();
  });

  it('keeps an opt-out list on its page: typed and imported numbers, search, removal, an export, and the Send preview marking a number on it', async () => {
    const { context, page } = await signUp();
    const apiKey = await createKey(page);
    expect((await registerPhone(stack, apiKey, { name: 'opt-outs', device_id: `opt-outs-${Date.now()}` })).status).toBe(201);
    const queued = await stack.createTask(apiKey, { recipient: '+381641110002', message: 'Next year', scheduled_at: '2030-01-15 09:00:00' });
    expect(queued.status).toBe(201);

    await page.goto(`${dashboardUrl}/opt-outs`);
    await page.getByText('Nobody has opted out').waitFor();
    await page.getByLabel('Numbers').fill('064 111 0001\n+381641110002');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    expect(await page.getByTestId('opt-outs-added').textContent()).toBe('2 added to the list; 1 queued message cancelled and refunded.');
    expect((await stack.http('GET', `/smsapi/tasks/${queued.body.id}`, { headers: { 'x-api-key': apiKey } })).body).toMatchObject({ status: 'failed', error: 'opted_out' });

    await page.getByTestId('opt-outs-import').setInputFiles({ name: 'from-crm.csv', mimeType: 'text/csv', buffer: Buffer.from('name;mobile\nAna;+381641110003\nBo;+381641110001\n') });
    await page.getByTestId('opt-outs-added').filter({ hasText: '1 added to the list.' }).waitFor();
    const table = page.getByTestId('opt-outs-table');
    await table.getByRole('cell', { name: '+381641110003' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(4);
    await page.getByLabel('Numbers').fill('not a number');
    await page.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('alert').filter({ hasText: 'not a usable phone number' }).waitFor();

    await page.getByRole('searchbox', { name: 'Search' }).fill('111 0003');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(async () => expect(await table.getByRole('row').count()).toBe(2));
    await table.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No number on the list contains').waitFor();
    await screenshot(page, 'opt-outs');

    await page.goto(`${dashboardUrl}/opt-outs`);
    await table.getByRole('cell', { name: '+381641110001' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const exported = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of exported) chunks.push(chunk as Buffer);
    const lines = Buffer.concat(chunks).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('number,opted_out_at,source');
    expect(lines.slice(1).map((line) => line.split(',')[0]).sort()).toEqual(['+381641110001', '+381641110002']);
    expect((await stack.http('GET', '/smsapi/opt-outs', { headers: { 'x-api-key': apiKey } })).body.items.map((item: { source: string }) => item.source)).toEqual(['dashboard', 'dashboard']);

    await page.getByLabel('Your opt-out words').fill('odjava, стоп');
    await page.getByRole('checkbox', { name: 'Cancel and refund what is queued to it' }).uncheck();
    await page.getByRole('button', { name: 'Save keywords' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await stack.http('GET', '/smsapi/opt-out-settings', { headers: { 'x-api-key': apiKey } })).body).toEqual({ opt_out_words: ['ODJAVA', 'СТОП'], opt_in_words: [], cancel_queued: false });

    await page.goto(`${dashboardUrl}/send`);
    await page.getByLabel('CSV file').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from('phone\n+381641110001\n+381641110009\n') });
    await page.getByLabel('Message template').fill('Hello');
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('send-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('1 of 2 rows are ready');
    expect(await preview.getByRole('row').filter({ hasText: '+381641110001' }).textContent()).toContain('Opted out');
    await page.getByRole('button', { name: 'Send 1 message (1 credit)' }).click();
    expect(await page.getByTestId('send-summary').textContent()).toContain('1 message is queued');
    await context.close();
  });

  it('saves a template on its page, and sends from it on the Send page: one SMS with its fields, and a CSV whose columns fill it', async () => {
    const { context, page } = await signUp();
    const apiKey = await createKey(page);
    expect((await registerPhone(stack, apiKey, { name: 'templates', device_id: `templates-${Date.now()}` })).status).toBe(201);

    await page.goto(`${dashboardUrl}/templates`);
    await page.getByText('No templates yet').waitFor();
    await page.getByLabel('Name').fill('Reminder');
    await page.getByLabel('Text').fill('Hi {name}, see you at {time}.');
    expect(await page.getByText('Placeholders: name, time').count()).toBe(1);
    await page.getByRole('button', { name: 'Save template' }).click();
    const table = page.getByTestId('templates-table');
    await table.getByRole('cell', { name: 'Hi {name}, see you at {time}.' }).waitFor();
    await page.getByLabel('Name').fill('Reminder');
    await page.getByLabel('Text').fill('Twice');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('alert').filter({ hasText: 'named "Reminder" already' }).waitFor();
    await screenshot(page, 'templates');

    await page.goto(`${dashboardUrl}/send`);
    const one = page.locator('.card').filter({ hasText: 'Send SMS' });
    await one.getByLabel('Recipient').fill('064 123 4567');
    await one.getByLabel('Template', { exact: true }).selectOption({ label: 'Reminder' });
    await one.getByLabel('name', { exact: true }).fill('Ana');
    await one.getByLabel('time', { exact: true }).fill('10:30');
    await one.getByRole('button', { name: 'Send (1 credit)' }).click();
    const queued = page.getByRole('status').filter({ hasText: 'is queued for' });
    await queued.waitFor();
    const taskId = Number(/Task #(\d+)/.exec((await queued.textContent())!)![1]);
    expect((await stack.http('GET', `/smsapi/tasks/${taskId}`, { headers: { 'x-api-key': apiKey } })).body.message).toBe('Hi Ana, see you at 10:30.');

    const many = page.locator('.card').filter({ hasText: 'Send to many' });
    await many.getByLabel('CSV file').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from('phone,name,time\n+381641234568,Bo,9:00\n') });
    await many.getByLabel('Template', { exact: true }).selectOption({ label: 'Reminder' });
    expect(await many.getByLabel('Message template').inputValue()).toBe('Hi {name}, see you at {time}.');
    await many.getByRole('button', { name: 'Preview' }).click();
    await page.getByTestId('send-preview').getByRole('cell', { name: 'Hi Bo, see you at 9:00.' }).waitFor();
    await page.getByRole('button', { name: 'Send 1 message (1 credit)' }).click();
    expect(await page.getByTestId('send-summary').textContent()).toContain('1 message is queued');
    await context.close();
  });

  it('shows a conversation per number with its unread replies, and sends a reply from it through the phone the reply came to', async () => {
    const { context, page } = await signUp();
    const apiKey = await createKey(page);
    const paired = await registerPhone(stack, apiKey, { name: 'front desk', device_id: `threads-${Date.now()}` });
    expect(paired.status).toBe(201);
    const phone = workerApi(stack, paired.body.worker_token as string);
    const asked = await stack.createTask(apiKey, { recipient: '+381641112201', message: 'Can you come on Friday?' });
    expect((await phone.poll()).body).toMatchObject({ id: asked.body.id });
    expect((await phone.report(asked.body.id as number, 'sent')).status).toBe(200);
    await stack.createTask(apiKey, { recipient: '+381641112202', message: 'Your code is 4711' });
    expect((await phone.inbound({ messages: [{ from: '+381641112201', message: 'Yes, at ten', external_id: `threads-${Date.now()}` }] })).status).toBe(201);

    await page.goto(`${dashboardUrl}/conversations`);
    const threads = page.getByTestId('threads');
    await eventually(async () => {
      await page.reload();
      expect(await threads.getByRole('listitem').first().textContent()).toContain('1 unread');
    }, { timeoutMs: 15_000, intervalMs: 500 });
    expect(await threads.getByRole('listitem').first().textContent()).toContain('+381641112201');
    expect(await threads.getByRole('listitem').first().textContent()).toContain('Yes, at ten');
    expect(await threads.getByRole('listitem').nth(1).textContent()).toContain('You: Your code is 4711');

    await page.getByRole('searchbox', { name: 'Search' }).fill('code is');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(async () => expect(await threads.getByRole('listitem').count()).toBe(1));
    expect(await threads.textContent()).toContain('+381641112202');
    await page.getByRole('searchbox', { name: 'Search' }).fill('1112201');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(async () => expect(await threads.textContent()).toContain('+381641112201'));

    await threads.getByRole('link', { name: /\+381641112201/ }).click();
    const thread = page.getByTestId('thread');
    await thread.getByTestId('bubble-in').waitFor();
    expect(await thread.getByTestId('bubble-out').first().textContent()).toContain('Can you come on Friday?');
    expect(await thread.getByTestId('bubble-out').first().textContent()).toContain('sent');
    expect(await thread.getByTestId('bubble-in').textContent()).toContain('Yes, at ten');
    expect(await page.getByText('Sent through front desk').count()).toBe(1);
    await page.getByLabel('Message').fill('Great, see you then');
    await page.getByRole('button', { name: 'Send reply (1 credit)' }).click();
    await eventually(async () => expect(await thread.getByTestId('bubble-out').count()).toBe(2));
    expect(await thread.getByTestId('bubble-out').last().textContent()).toContain('Great, see you then');
    await screenshot(page, 'conversation');
    const listed = await stack.http('GET', '/smsapi/tasks?limit=1', { headers: { 'x-api-key': apiKey } });
    expect(listed.body.items[0]).toMatchObject({ recipient: '+381641112201', message: 'Great, see you then', phone_id: paired.body.phone_id });

    await page.goto(`${dashboardUrl}/conversations`);
    await threads.getByRole('listitem').first().waitFor();
    expect(await threads.getByRole('listitem').first().textContent()).toContain('You: Great, see you then');
    expect(await threads.textContent()).not.toContain('unread');
    await context.close();
  });

  it('adds a webhook endpoint, shows its secret once, sends a test event the receiver can verify, and sends it again', async () => {
    const received: Array<{ signature: string; body: string }> = [];
    const receiver = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ signature: String(request.headers['smsq-signature']), body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { context, page } = await signUp();
    try {
      await page.goto(`${dashboardUrl}/webhooks`);
      await page.getByLabel('URL').fill(receiverUrl);
      await page.getByRole('checkbox', { name: 'task.cancelled' }).uncheck();
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = (await page.getByTestId('new-webhook-secret').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      expect(await page.getByTestId('new-webhook-secret').count()).toBe(0);

      await page.getByRole('button', { name: 'Send a test event' }).click();
      await eventually(() => expect(received).toHaveLength(1), { timeoutMs: 15_000, intervalMs: 100 });
      const [t, v1] = received[0]!.signature.split(',').map((part) => part.split('=')[1]);
      expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${received[0]!.body}`).digest('hex'));
      expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: expect.any(Number) } });
      const deliveries = page.locator('table[data-testid^="deliveries-"]');
      await eventually(async () => expect(await deliveries.getByText('delivered').count()).toBe(1), { timeoutMs: 15_000, intervalMs: 500 });
      await screenshot(page, 'webhooks');

      await deliveries.getByRole('button', { name: 'Send webhook.test again' }).click();
      await eventually(() => expect(received).toHaveLength(2), { timeoutMs: 15_000, intervalMs: 100 });
      expect(received[1]!.body).toBe(received[0]!.body);
      const listed = await page.evaluate(() => fetch('/api/webhooks').then((answer) => answer.json()));
      expect(listed.endpoints).toEqual([expect.objectContaining({ url: receiverUrl, events: WEBHOOK_EVENT_TYPES.filter((type) => type !== 'task.cancelled'), active: true })]);
    } finally {
      await context.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('changes the password on the Settings page: the other browser is signed out, and only the new password signs in', async () => {
    const { context, page, email } = await signUp();
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    try {
      await otherPage.goto(`${dashboardUrl}/signin`);
      await otherPage.getByLabel('Email').fill(email);
      await otherPage.getByLabel('Password').fill(PASSWORD);
      await otherPage.getByRole('button', { name: 'Sign in' }).click();
      await otherPage.getByRole('heading', { name: 'Overview' }).waitFor();

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByLabel('Current password').fill(PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill('a different long passphrase');
      await page.getByLabel('New password again').fill('a different long passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Every other browser signed in as you has been signed out.').waitFor();

      // This browser stays signed in (with a fresh session and CSRF token): it can still act.
      await page.goto(`${dashboardUrl}/keys`);
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByTestId('new-api-key').waitFor();
      await otherPage.goto(`${dashboardUrl}/keys`);
      await otherPage.getByRole('button', { name: 'Sign in' }).waitFor();
      await otherPage.getByLabel('Email').fill(email);
      await otherPage.getByLabel('Password').fill(PASSWORD);
      await otherPage.getByRole('button', { name: 'Sign in' }).click();
      await otherPage.getByRole('alert').waitFor();
      await otherPage.getByLabel('Password').fill('a different long passphrase');
      await otherPage.getByRole('button', { name: 'Sign in' }).click();
      await otherPage.getByRole('heading', { name: 'API keys' }).waitFor();
    } finally {
      await other.close();
      await context.close();
    }
  });

  it('names an API key at creation, so the keys table tells them apart', async () => {
    const { context, page } = await signUp();
    try {
      await page.goto(`${dashboardUrl}/keys`);
      await page.getByLabel('Key name').fill('shop backend');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const apiKey = (await page.getByTestId('new-api-key').textContent())!.trim();
      await page.getByRole('cell', { name: 'shop backend' }).waitFor();
      expect(await page.getByRole('row').filter({ hasText: apiKey.slice(0, 13) }).getByText('shop backend').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows what users typed as text, never as markup', async () => {
    const { context, page } = await signUp();
    const apiKey = await createKey(page);
    const phone = await registerPhone(stack, apiKey, { name: '<b>bold</b>', device_id: 'xss' });
    const hostile = '<script>window.__smsqXss = 1</script><img src=x onerror="window.__smsqXss = 2">';
    expect((await stack.createTask(apiKey, { recipient: '+381641234567', message: hostile })).status).toBe(201);
    await workerApi(stack, phone.body.worker_token).inbound({ from: '+381641234567', message: hostile, external_id: 'xss-1' });
    for (const path of ['/tasks', '/inbox']) {
      await page.goto(`${dashboardUrl}${path}`);
      await page.getByText(hostile).first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { __smsqXss?: number }).__smsqXss)).toBeUndefined();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
    }
    await context.close();
  });

  it("does not let a client open another client's task by its URL", async () => {
    const owner = await signUp();
    const apiKey = await createKey(owner.page);
    await registerPhone(stack, apiKey, { name: 'p', device_id: 'owner' });
    const created = await stack.createTask(apiKey, { recipient: '+381641234567', message: 'private message of the owner' });
    await owner.page.goto(`${dashboardUrl}/tasks/${created.body.id}`);
    await owner.page.getByText('private message of the owner').waitFor();

    const stranger = await signUp();
    await stranger.page.goto(`${dashboardUrl}/tasks/${created.body.id}`);
    await stranger.page.getByText(/not found/i).first().waitFor();
    expect(await stranger.page.content()).not.toContain('private message of the owner');
    const api = await stranger.page.evaluate(async (id) => (await fetch(`/api/tasks/${id}`)).status, created.body.id);
    expect(api).toBe(404);
    await owner.context.close();
    await stranger.context.close();
  });

  it("lets an admin grant bonus credits that the client's overview then shows", async () => {
    const client = await signUp();
    const clientId = await client.page.evaluate(async () => ((await (await fetch('/api/auth/session')).json()) as { user: { clientId: number } }).user.clientId);
    const adminEmail = `admin-${Date.now()}@example.com`;
    await stack.adminOk('admin', 'create', '--email', adminEmail, '--password', PASSWORD);

    const adminContext = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: BROWSER_ZONE });
    const admin = await adminContext.newPage();
    await admin.goto(`${dashboardUrl}/signin`);
    await admin.getByLabel('Email').fill(adminEmail);
    await admin.getByLabel('Password').fill(PASSWORD);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    // An admin without a client of its own lands on Clients once signed in.
    await admin.getByRole('heading', { name: 'Clients' }).waitFor();
    // Each client with its status, plan and credits, every column in view.
    const listed = admin.getByTestId(`client-row-${clientId}`);
    await listed.waitFor();
    expect((await listed.locator('td').allInnerTexts()).slice(2, 5)).toEqual(['active', 'free', '30']);
    expect(await admin.locator('.table-wrap').first().evaluate((wrap) => wrap.scrollWidth <= wrap.clientWidth)).toBe(true);
    // A new client's zone starts as sign-up's (SMSQ_TIMEZONE), not the admin's browser's.
    expect(await admin.getByLabel('Time zone').inputValue()).toBe(CLIENT_ZONE);
    await screenshot(admin, 'admin-clients');
    await admin.goto(`${dashboardUrl}/admin/clients/${clientId}`);
    await admin.getByLabel(/amount/i).fill('25');
    await admin.getByRole('button', { name: 'Grant credits' }).click();
    await admin.getByText(/55/).first().waitFor();
    // Disabling refuses the client's API key at once; enabling restores it.
    const apiKey = await createKey(client.page);
    await admin.getByRole('button', { name: 'Disable client' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Disable client' }).click();
    await admin.getByTestId('client-access').getByText('disabled').waitFor();
    expect((await stack.http('GET', '/smsapi/tasks', { headers: { 'x-api-key': apiKey } })).status).toBe(401);
    await admin.getByRole('button', { name: 'Enable client' }).click();
    await admin.getByTestId('client-access').getByText('active').waitFor();
    expect((await stack.http('GET', '/smsapi/tasks', { headers: { 'x-api-key': apiKey } })).status).toBe(200);
    const { phoneId } = await stack.newClient();
    await admin.goto(`${dashboardUrl}/admin/worker-tokens`);
    await admin.getByLabel(/phone id/i).fill(String(phoneId));
    await admin.getByRole('button', { name: 'Create worker token' }).click();
    const token = (await admin.getByTestId('new-worker-token').textContent())!.trim();
    expect(token).toMatch(/^smsq_wkr_/);
    // The phone's registration issued a token too; the new one is told apart by its visible prefix.
    const row = admin.getByRole('row').filter({ hasText: token.slice(0, 13) });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText(/Revoked/).waitFor();

    await admin.goto(`${dashboardUrl}/admin/system`);
    await admin.getByRole('heading', { name: 'System' }).waitFor();
    await admin.getByText('All services ready').waitFor();
    await screenshot(admin, 'admin-system');

    await client.page.goto(dashboardUrl);
    await client.page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await client.page.getByTestId('bonus-remaining').textContent()).toContain('25');
    expect(await client.page.getByTestId('credits-remaining').textContent()).toContain('55');
    await adminContext.close();
    await client.context.close();
  });
});
