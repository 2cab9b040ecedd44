import { eventually } from '@smsq/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signUpWithApiKey } from './support/browser.js';
import { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/** The shortest silence the services take (it must exceed the 30 s long-poll cap), so a phone goes silent within the test. */
const SILENT_S = 31;

/**
 * Issue 18, as an owner sees it: a phone's state and last contact, its SIM limits (public API,
 * command line and the Phones page's form), and the banner that names a silent phone with tasks
 * waiting, gone once the phone is back.
 */
describe('phone liveness and SIM limits, Profile A', () => {
  let stack: Stack;
  let dashboardUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_PHONE_SILENT_S: String(SILENT_S) } });
    dashboardUrl = await stack.startDashboard();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  async function signUpWithKey(): Promise<{ context: BrowserContext; page: Page; apiKey: string }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const apiKey = await signUpWithApiKey(page, dashboardUrl, 'liveness');
    return { context, page, apiKey };
  }

  it('lists the client’s phones with their state and sets SIM limits through the API and the command line; bad values are 400 naming the field', async () => {
    const { context, apiKey } = await signUpWithKey();
    const phone = await registerPhone(stack, apiKey, { name: 'API phone', device_id: 'liveness-api' });
    const smsq = stack.client({ apiKey });

    const listed = await smsq.GET('/smsapi/phones');
    expect(listed.response.status).toBe(200);
    expect(listed.data!.phones).toEqual([
      expect.objectContaining({ id: phone.body.phone_id, name: 'API phone', kind: 'own', state: 'online', active: true, daily_limit: null, per_minute: null, waiting_tasks: 0 }),
    ]);

    const set = await smsq.PATCH('/smsapi/phones/{id}', { params: { path: { id: phone.body.phone_id } }, body: { daily_limit: 500, per_minute: 10 } });
    expect(set.response.status).toBe(200);
    expect(set.data).toMatchObject({ id: phone.body.phone_id, daily_limit: 500, per_minute: 10 });

    const bad = await stack.http('PATCH', `/smsapi/phones/${phone.body.phone_id}`, { headers: { 'x-api-key': apiKey }, body: { daily_limit: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'invalid_request', detail: expect.stringContaining('daily_limit') });
    const other = await stack.http('PATCH', `/smsapi/phones/${phone.body.phone_id + 1000}`, { headers: { 'x-api-key': apiKey }, body: { daily_limit: 1 } });
    expect(other.status).toBe(404);

    const printed = await stack.adminOk('phone', 'set', '--phone', String(phone.body.phone_id), '--per-minute', 'none');
    expect(printed).toMatchObject({ phone_id: phone.body.phone_id, daily_limit: 500, per_minute: null, state: 'online' });
    const refused = await stack.admin('phone', 'set', '--phone', String(phone.body.phone_id), '--daily', '100001');
    expect(refused.exitCode).not.toBe(0);
    expect(refused.output).toMatchObject({ error: 'invalid_request', detail: expect.stringContaining('--daily') });
    await context.close();
  });

  it('shows the state and limits on the Phones page, refuses a bad limit, and names a silent phone with its waiting task until it is back', { timeout: 150_000 }, async () => {
    const { context, page, apiKey } = await signUpWithKey();
    const phone = await registerPhone(stack, apiKey, { name: 'Hallway phone', device_id: 'liveness-browser' });
    const phoneId = phone.body.phone_id as number;
    const worker = workerApi(stack, phone.body.worker_token);
    expect((await worker.poll()).status).toBe(200);

    await page.goto(`${dashboardUrl}/phones`);
    const row = page.getByTestId(`phone-row-${phoneId}`);
    expect(await row.getByTestId('connection').textContent()).toBe('online');
    expect(await page.getByTestId('silent-phones-banner').count()).toBe(0);

    await row.getByRole('button', { name: 'Set limits of Hallway phone' }).click();
    await row.getByLabel('Daily limit of Hallway phone').fill('-5');
    await row.getByRole('button', { name: 'Save limits' }).click();
    expect(await row.getByTestId('limits-error').textContent()).toContain('The daily limit must be a whole number from 0 to 100,000');
    await row.getByLabel('Daily limit of Hallway phone').fill('500');
    await row.getByLabel('Per-minute pace of Hallway phone').fill('');
    await row.getByRole('button', { name: 'Save limits' }).click();
    await row.getByTestId('sim-limits').filter({ hasText: '500 a day' }).waitFor();
    expect((await stack.client({ apiKey }).GET('/smsapi/phones')).data!.phones[0]).toMatchObject({ daily_limit: 500, per_minute: null });

    // A task pinned to the phone stays with it: once the phone is silent, it waits for it.
    const created = await stack.createTask(apiKey, { recipient: '+381641234567', message: 'Waits for the hallway phone', phone_id: phoneId });
    expect(created.status).toBe(201);
    await eventually(
      async () => {
        await page.goto(dashboardUrl);
        await page.getByTestId(`silent-phone-${phoneId}`).waitFor({ timeout: 1_000 });
      },
      { timeoutMs: (SILENT_S + 30) * 1000, intervalMs: 2_000 },
    );
    const banner = (await page.getByTestId(`silent-phone-${phoneId}`).textContent())!;
    expect(banner).toContain('Hallway phone');
    expect(banner).toContain('1 task waits');
    await page.goto(`${dashboardUrl}/phones`);
    expect(await row.getByTestId('connection').textContent()).toBe('silent');
    expect(await page.getByTestId(`silent-phone-${phoneId}`).textContent()).toContain('1 task waits');

    // Back: it polls, takes its task, and the banner goes.
    const claimed = await worker.poll();
    expect(claimed.body).toMatchObject({ id: created.body.id });
    // No pace set: the task is exactly §3's, without per_minute.
    expect(claimed.body).not.toHaveProperty('per_minute');
    await page.reload();
    expect(await row.getByTestId('connection').textContent()).toBe('online');
    expect(await page.getByTestId('silent-phones-banner').count()).toBe(0);
    await page.goto(dashboardUrl);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByTestId('credits-remaining').waitFor();
    expect(await page.getByTestId('silent-phones-banner').count()).toBe(0);
    await context.close();
  });
});
