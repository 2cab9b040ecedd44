import { chromium, type Browser } from 'playwright-core';

/** The system's Chromium (`npm test` finds or installs one and passes it as CHROMIUM_PATH), headless, kept off the network it cannot reach anyway. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
