import { chromium, type Browser, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** The system's Chromium (`npm test` finds or installs one and passes it as CHROMIUM_PATH), headless, kept off the network it cannot reach anyway. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** The password the browser tests sign up with. */
export const TEST_PASSWORD = 'correct horse battery staple';

/** A new client signed up in `page` (its e-mail starting `label`), with an API key made on its Keys page, as a user makes one. */
export async function signUpWithApiKey(page: Page, dashboardUrl: string, label: string): Promise<string> {
  await page.goto(`${dashboardUrl}/signup`);
  await page.getByLabel('Email').fill(`${label}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`);
  await page.getByLabel('Password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  await page.goto(`${dashboardUrl}/keys`);
  await page.getByRole('button', { name: 'Create API key' }).click();
  return (await page.getByTestId('new-api-key').textContent())!.trim();
}

/** Where the browser tests save their screenshots (`SMSQ_SCREENSHOTS_DIR`, e.g. docs/screenshots); none unless set. */
const SCREENSHOTS_DIR = process.env['SMSQ_SCREENSHOTS_DIR'];

/** Saves the whole page as `<name>.png` when screenshots are asked for. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}
