import { eventually, startMailbox, type Mailbox } from '@smsq/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from './support/browser.js';
import { SmppTestClient } from './support/smpp-client.js';
import { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/** Set to a folder (docs/screenshots) to keep pictures of the pages. */
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a new passphrase from the link';
const RESET_LINK = /http:\/\/localhost:\d+\/reset-password#token=[A-Za-z0-9_-]{43}/;

describe('account settings in the dashboard, in a real browser', () => {
  let stack: Stack;
  let browser: Browser;
  let mailbox: Mailbox;
  let dashboardUrl: string;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true });
    [mailbox, browser] = await Promise.all([startMailbox(), launchBrowser()]);
    // Without SMTP first (the log path); the SMTP tests restart it with a mail server.
    dashboardUrl = await stack.startDashboard();
  });

  afterAll(async () => {
    await browser?.close();
    await mailbox?.close();
    await stack?.stop();
  });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    return { context, page: await context.newPage() };
  }

  async function signUp(): Promise<{ context: BrowserContext; page: Page; email: string; clientId: number }> {
    const { context, page } = await newPage();
    const email = `user-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    await page.goto(`${dashboardUrl}/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const overview = (await (await page.request.get(`${dashboardUrl}/api/overview`)).json()) as { clientId: number };
    return { context, page, email, clientId: overview.clientId };
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${dashboardUrl}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** From the sign-in page's link to the answer, as a user who forgot the password goes. */
  async function askForReset(email: string, name?: string): Promise<void> {
    const { context, page } = await newPage();
    await page.goto(`${dashboardUrl}/signin`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('Email').fill(email);
    if (name) await screenshot(page, name);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('Check your email').waitFor();
    await context.close();
  }

  /** Opens the link, sets the new password and signs in with it; every earlier session is over. */
  async function resetWith(link: string, email: string, signedInElsewhere: Page, name?: string): Promise<void> {
    const { context, page } = await newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    if (name) await screenshot(page, name);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Password changed').waitFor();

    await signedInElsewhere.reload();
    await signedInElsewhere.getByRole('heading', { name: 'Sign in to smsq' }).waitFor();
    await signIn(page, email, PASSWORD);
    await page.getByText('That email and password do not match an account.').waitFor();
    await signIn(page, email, NEW_PASSWORD);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();

    // The same link again: spent.
    const again = await context.newPage();
    await again.goto(link);
    await again.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await again.getByLabel('New password again').fill('yet another passphrase');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByText('This link no longer works').waitFor();
    await context.close();
  }

  it('without SMTP, writes the reset link to the dashboard’s log, and the link sets a new password', async () => {
    const { page, email } = await signUp();

    await askForReset(email);

    const line = await eventually(
      async () => {
        const found = stack.logsOf('dashboard').find((entry) => entry.includes('Password reset link') && entry.includes(email));
        expect(found).toBeDefined();
        return found!;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    expect(line).toContain('SMSQ_SMTP_URL is not set');
    await resetWith(RESET_LINK.exec(line)![0], email, page);
  });

  it('answers an address without an account as it answers one with, and logs no link for it', async () => {
    const nobody = `nobody-${Date.now()}@example.com`;
    const { email } = await signUp();

    await askForReset(nobody);
    await askForReset(email);

    // The later request's link is there, so the earlier one had its turn.
    await eventually(async () => expect(stack.logsOf('dashboard').some((entry) => entry.includes('Password reset link') && entry.includes(email))).toBe(true), { timeoutMs: 15_000, intervalMs: 100 });
    expect(stack.logsOf('dashboard').filter((entry) => entry.includes(nobody))).toEqual([]);
  });

  it('sets how and when its messages go on the Settings page: the Phones page shows it, a normal SMS waits for the window and a high-priority one goes at once', async () => {
    const { context, page } = await signUp();
    await page.goto(`${dashboardUrl}/keys`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    const apiKey = (await page.getByTestId('new-api-key').textContent())!.trim();
    const phone = await registerPhone(stack, apiKey, { name: 'pixel', device_id: `sending-${Date.now()}` });
    expect(phone.status).toBe(201);
    const worker = workerApi(stack, phone.body.worker_token);
    // A window only on the day after tomorrow (in the client's zone, Europe/Belgrade) is closed now.
    const inTwoDays = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Belgrade', weekday: 'long' }).format(new Date(Date.now() + 2 * 86_400_000));

    await page.goto(`${dashboardUrl}/settings`);
    await page.getByRole('heading', { name: 'Sending' }).waitFor();
    expect(await page.getByLabel('First phone').isChecked()).toBe(true);
    expect(await page.getByTestId('window-state').textContent()).toContain('any hour');
    await page.getByLabel('Sticky', { exact: true }).check();
    await page.getByLabel('Sticky days').fill('14');
    await page.getByRole('button', { name: 'Add a window' }).click();
    const sendWindow = page.getByTestId('send-window-1');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) await sendWindow.getByLabel(day).uncheck();
    await sendWindow.getByLabel(inTwoDays).check();
    await sendWindow.getByLabel('From', { exact: true }).fill('08:00');
    await sendWindow.getByLabel('To', { exact: true }).fill('09:00');
    await page.getByRole('button', { name: 'Save sending rules' }).click();
    await page.getByText('Sending rules saved').waitFor();
    // The state line is read again after the save: it shows the new windows a moment after the confirmation.
    await page.getByTestId('window-state').filter({ hasText: 'closed now' }).waitFor();
    await screenshot(page, 'settings-sending');
    const rules = (await (await page.request.get(`${dashboardUrl}/api/settings/sending`)).json()) as Record<string, unknown>;
    expect(rules).toMatchObject({ routingMode: 'sticky', stickyDays: 14, sendWindows: [{ days: [inTwoDays.slice(0, 3).toLowerCase()], from: '08:00', to: '09:00' }], timeZone: 'Europe/Belgrade', windowOpen: false });

    await page.goto(`${dashboardUrl}/phones`);
    expect(await page.getByTestId('routing-mode').textContent()).toBe('Sticky');
    await page.getByTestId('window-state').filter({ hasText: 'closed now' }).waitFor();
    expect(await page.getByTestId(`phone-row-${phone.body.phone_id}`).getByTestId('parts-today').textContent()).toBe('0 parts, no limit');

    await page.goto(`${dashboardUrl}/send`);
    const queuedIds: number[] = [];
    for (const [message, high] of [['See you on Saturday', false], ['Your code is 4711', true]] as const) {
      await page.getByLabel('Recipient').fill('064 123 4567');
      await page.getByLabel('Message', { exact: true }).fill(message);
      if (high) await page.getByLabel('High priority (one-time codes, alerts): ignores send windows, goes first').first().check();
      await page.getByRole('button', { name: 'Send (1 credit)' }).click();
      const queued = page.getByRole('status').filter({ hasText: 'is queued for' });
      await queued.waitFor();
      queuedIds.push(Number(/Task #(\d+)/.exec((await queued.textContent())!)![1]));
      await page.reload();
    }
    const [normalId, highId] = queuedIds;

    // Only the high-priority task is handed out; the normal one waits for the window.
    expect((await worker.poll(0)).body).toMatchObject({ id: highId, message: 'Your code is 4711' });
    expect((await worker.poll(0)).body?.id).toBeUndefined();
    expect((await stack.http('GET', `/smsapi/tasks/${normalId}`, { headers: { 'x-api-key': apiKey } })).body).toMatchObject({ status: 'pending', priority: 'normal' });
    await page.goto(`${dashboardUrl}/tasks/${highId}`);
    expect(await page.getByTestId('task-priority').textContent()).toContain('High');
    await context.close();
  });

  it('creates SMPP credentials on the Settings page, the password shown once, that bind until revoked there', async () => {
    const { context, page } = await signUp();
    const smppPort = await stack.startSmpp();
    await page.goto(`${dashboardUrl}/settings#smpp`);
    await page.getByRole('heading', { name: 'SMPP' }).waitFor();
    const systemId = `acme${Date.now() % 100_000}`;
    await page.getByLabel('System ID (optional)').fill(systemId);
    await page.getByLabel('Source addresses (optional)').fill('ACME, +381641234567');
    await page.getByRole('button', { name: 'Create SMPP credentials' }).click();
    const password = (await page.getByTestId('new-smpp-password').textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{8}$/);
    const row = page.getByRole('row').filter({ hasText: systemId });
    await expect.poll(() => row.textContent()).toContain('ACME, +381641234567');
    await screenshot(page, 'settings-smpp');

    const bound = await SmppTestClient.bound(smppPort, systemId, password);
    const submit = (sourceAddr: string) => bound.request('submit_sm', { source_addr: sourceAddr, dest_addr_ton: 1, destination_addr: '381641234567', short_message: 'from the dashboard credentials' });
    // Bound: a sender outside the source addresses is refused (ESME_RINVSRCADR); ACME reaches create-task's rules, and this client has no phone yet (smsq's 0x403).
    expect((await submit('OTHER')).command_status).toBe(0x0a);
    expect((await submit('ACME')).command_status).toBe(0x0403);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.textContent()).toContain('Revoked');
    await bound.closed;
    await stack.kill('smpp');
    await context.close();
  });

  describe('with SMTP', () => {
    beforeAll(async () => {
      await stack.kill('dashboard');
      dashboardUrl = await stack.startDashboard({ SMSQ_SMTP_URL: mailbox.url, SMSQ_MAIL_FROM: 'smsq <no-reply@example.com>' });
    });

    it('e-mails the reset link, which points at this dashboard and sets a new password once', async () => {
      const { page, email } = await signUp();

      await askForReset(email, 'forgot-password');

      const mail = await eventually(
        async () => {
          const found = mailbox.mails.find((candidate) => candidate.to.includes(email));
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
      expect(mail.text).toContain('Subject: Reset your smsq dashboard password');
      const link = RESET_LINK.exec(mail.text)![0];
      expect(link.startsWith(`http://localhost:${new URL(dashboardUrl).port}/reset-password#token=`)).toBe(true);
      await resetWith(link, email, page, 'reset-password');
    });

    it('shuts a disabled client’s users out with a clear message until an admin enables the client again', async () => {
      const { page, email, clientId } = await signUp();

      await stack.adminOk('client', 'disable', '--client', String(clientId));

      // Each dashboard asks the gateway at most every 5 s whether a client is disabled: within seconds, the session ends.
      await eventually(
        async () => {
          await page.reload();
          await page.getByRole('heading', { name: 'Sign in to smsq' }).waitFor({ timeout: 1_500 });
        },
        { timeoutMs: 15_000, intervalMs: 500 },
      );
      await signIn(page, email, PASSWORD);
      await page.getByText('This account is disabled').waitFor();
      expect(await page.getByText('disabled by an administrator').count()).toBe(1);

      await stack.adminOk('client', 'enable', '--client', String(clientId));

      await signIn(page, email, PASSWORD);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
    });

    it('lets a client change its time zone: queued tasks keep their moment, new times are read in the new zone, and an admin can set it too', async () => {
      const { page, clientId } = await signUp();
      await page.goto(`${dashboardUrl}/keys`);
      await page.getByRole('button', { name: 'Create API key' }).click();
      const apiKey = (await page.getByTestId('new-api-key').textContent())!.trim();
      expect((await registerPhone(stack, apiKey, { name: 'pixel' })).status).toBe(201);
      const auth = { headers: { 'X-API-Key': apiKey } };
      // 09:00 in Belgrade (UTC+1 in January) is 08:00 UTC, 03:00 in New York (UTC-5).
      const before = await stack.createTask(apiKey, { recipient: '+381641234567', message: 'queued in Belgrade', scheduled_at: '2030-01-15 09:00:00' });
      expect(before.status).toBe(201);

      await page.goto(`${dashboardUrl}/settings`);
      await page.getByLabel('Time zone').selectOption('America/New_York');
      await screenshot(page, 'settings');
      await page.getByRole('button', { name: 'Save time zone' }).click();
      await page.getByText('Time zone saved').waitFor();

      expect((await stack.http('GET', `/smsapi/tasks/${before.body.id}`, auth)).body.scheduled_at).toBe('2030-01-15 03:00:00');
      const after = await stack.createTask(apiKey, { recipient: '+381641234567', message: 'queued in New York', scheduled_at: '2030-01-15 03:00:00' });
      expect(after.status).toBe(201);
      await page.goto(`${dashboardUrl}/tasks`);
      await page.getByText('America/New_York').first().waitFor();

      const set = await stack.cli('client', 'set-timezone', '--client', String(clientId), '--timezone', 'Europe/Belgrade');

      expect(set).toMatchObject({ exitCode: 0, output: { client_id: clientId, timezone: 'Europe/Belgrade' } });
      // Both are due at 08:00 UTC: the second was read in New York, not in a zone some gateway still had cached.
      expect((await stack.http('GET', `/smsapi/tasks/${before.body.id}`, auth)).body.scheduled_at).toBe('2030-01-15 09:00:00');
      expect((await stack.http('GET', `/smsapi/tasks/${after.body.id}`, auth)).body.scheduled_at).toBe('2030-01-15 09:00:00');
      await page.goto(`${dashboardUrl}/settings`);
      await expect.poll(() => page.getByLabel('Time zone').inputValue()).toBe('Europe/Belgrade');
      const refused = await stack.cli('client', 'set-timezone', '--client', String(clientId), '--timezone', 'Mars/Olympus');
      expect(refused).toMatchObject({ exitCode: expect.any(Number), output: { error: 'invalid_request' } });
      expect(refused.exitCode).not.toBe(0);
    });
  });
});
