import { PassphraseKeyring, SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import type * as MessageCrypto from '@smsq/message-crypto';
import { eventually } from '@smsq/testing';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, JSHandle, Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signUpWithApiKey } from './support/browser.js';
import { Stack } from './support/stack.js';
import { registerPhone, workerApi } from './support/worker-api.js';

/** Set to a folder (docs/screenshots) to keep pictures of the pages. */
/** The client's passphrase for its messages: typed into the page, never the account's password. */
const PASSPHRASE = 'seven quiet lanterns drift over the river';
const MESSAGE_CRYPTO_ENTRY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'libs', 'message-crypto', 'src', 'index.ts');

/** libs/message-crypto as one browser script that defines `smsqMessageCrypto`, bundled here from its source for the test alone. */
async function messageCryptoForBrowsers(): Promise<string> {
  const bundle = await rolldown({ input: MESSAGE_CRYPTO_ENTRY, platform: 'browser', resolve: { conditionNames: ['@smsq/source', 'browser', 'import', 'default'] }, logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'iife', name: 'smsqMessageCrypto' });
  await bundle.close();
  return output[0].code;
}

/** Opens a sealed message in Node with the passphrase, as the client's worker would. */
function openHere(sealed: string): Promise<string> {
  return new PassphraseKeyring(PASSPHRASE).open(sealed);
}

describe('encrypted messages in the dashboard, in a real browser', () => {
  let stack: Stack;
  let dashboardUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true });
    [dashboardUrl, browser] = await Promise.all([stack.startDashboard(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A new client signed up in the browser, with an API key made on its Keys page and a phone registered with it. */
  async function signedUpClient(): Promise<{ context: BrowserContext; page: Page; apiKey: string; workerToken: string; sentToServer: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    // Everything the page asks of any server, to show the passphrase never leaves it.
    const sentToServer: string[] = [];
    page.on('request', (request) => sentToServer.push(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`));
    const apiKey = await signUpWithApiKey(page, dashboardUrl, 'sealed');
    const phone = await registerPhone(stack, apiKey, { name: 'sealed sender', device_id: `sealed-${Date.now()}` });
    expect(phone.status).toBe(201);
    return { context, page, apiKey, workerToken: phone.body.worker_token as string, sentToServer };
  }

  /** The header's "Decrypt messages": the passphrase typed and taken. */
  async function typePassphrase(page: Page, passphrase: string): Promise<void> {
    await page.getByRole('button', { name: 'Decrypt messages' }).click();
    await page.getByLabel('Passphrase', { exact: true }).fill(passphrase);
    await page.getByRole('button', { name: 'Decrypt', exact: true }).click();
  }

  /** The passphrase is in no storage and no cookie of the page, and went to no server. */
  async function expectPassphraseKeptInPageOnly(page: Page, context: BrowserContext, sentToServer: string[]): Promise<void> {
    const stored = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }));
    expect(stored).not.toContain(PASSPHRASE);
    expect(JSON.stringify(await context.cookies())).not.toContain(PASSPHRASE);
    expect(sentToServer.length).toBeGreaterThan(0);
    expect(sentToServer.filter((request) => request.includes(PASSPHRASE))).toEqual([]);
  }

  it('opens docs/guide/encryption.md’s test vectors, and seals them again to the same text, with Chromium’s own WebCrypto', async () => {
    const page = await browser.newPage();
    try {
      // The dashboard's origin: a secure context, where a page has WebCrypto.
      await page.goto(`${dashboardUrl}/signin`);
      // Evaluated as the test's own code (not a script tag, which the page's Content-Security-Policy refuses), and kept in a handle: the page gets no global.
      const library = (await page.evaluateHandle(`(() => {\n${await messageCryptoForBrowsers()}\nreturn smsqMessageCrypto;\n})()`)) as JSHandle<typeof MessageCrypto>;

      const inChromium = await page.evaluate(
        async ({ lib, vectors }) => {
          const bytesOf = (hex: string) => Uint8Array.from(hex.match(/../g)!, (pair) => parseInt(pair, 16));
          const results: Array<{ opened: string; resealed: string; wrongPassphrase: string }> = [];
          for (const vector of vectors) {
            const opened = await new lib.PassphraseKeyring(vector.passphrase).open(vector.sealed);
            const key = await lib.MessageKey.derive(vector.passphrase, vector.keyId);
            const resealed = await lib.sealMessage(key, vector.plaintext, { nonce: bytesOf(vector.nonceHex) });
            const wrongPassphrase = await new lib.PassphraseKeyring(`${vector.passphrase}!`).open(vector.sealed).then(
              () => 'opened',
              (error: { problem?: string }) => String(error.problem),
            );
            results.push({ opened, resealed, wrongPassphrase });
          }
          return { secureContext: isSecureContext, usesPageCrypto: typeof globalThis.crypto.subtle.deriveKey === 'function', results };
        },
        { lib: library, vectors: SEALED_MESSAGE_TEST_VECTORS },
      );

      expect(inChromium.secureContext).toBe(true);
      expect(inChromium.usesPageCrypto).toBe(true);
      expect(inChromium.results).toEqual(SEALED_MESSAGE_TEST_VECTORS.map((vector) => ({ opened: vector.plaintext, resealed: vector.sealed, wrongPassphrase: 'cannot_decrypt' })));
    } finally {
      await page.close();
    }
  });

  it('shows an encrypted task as an encrypted message, never its ciphertext, and its text only after the passphrase is typed, in this page only', async () => {
    const { context, page, apiKey, sentToServer } = await signedUpClient();
    const secret = `Your vault code is ${Math.floor(100_000 + Math.random() * 900_000)}`;
    const sealed = await new PassphraseKeyring(PASSPHRASE).seal(secret);
    const created = await stack.createTask(apiKey, { recipient: '+381641230001', message: sealed, encrypted: true });
    expect(created.status).toBe(201);
    const plain = await stack.createTask(apiKey, { recipient: '+381641230002', message: 'A plain one beside it' });
    expect(plain.status).toBe(201);

    await page.goto(`${dashboardUrl}/tasks`);
    const row = page.getByTestId(`task-row-${created.body.id}`);
    await row.getByText('Encrypted message').waitFor();
    await page.getByRole('cell', { name: 'A plain one beside it' }).waitFor();
    const locked = await page.locator('body').innerText();
    expect(locked).not.toContain(secret);
    expect(locked).not.toContain('$smsq$');
    expect(await page.content()).not.toContain(sealed.slice(48, 80));
    await screenshot(page, 'tasks-encrypted');

    // Another passphrase opens nothing, and says so in the row rather than failing the page.
    await typePassphrase(page, 'not the passphrase');
    await row.getByText('Cannot decrypt with this passphrase').waitFor();
    await page.getByRole('button', { name: 'Forget passphrase' }).click();
    await row.getByText('Encrypted message').waitFor();

    await typePassphrase(page, PASSPHRASE);
    await row.getByText(secret).waitFor();
    await screenshot(page, 'tasks-decrypted');
    expect(await page.locator('body').innerText()).not.toContain('$smsq$');
    expect(await page.getByRole('cell', { name: 'A plain one beside it' }).count()).toBe(1);

    // Within the page the passphrase stays: the task's own page opens it too, its parts not known before its phone sends it.
    await row.getByRole('link', { name: `#${created.body.id}` }).click();
    await page.getByTestId('task-message').getByText(secret).waitFor();
    expect(await page.getByTestId('task-segments').textContent()).toContain('Not known yet');
    await expectPassphraseKeptInPageOnly(page, context, sentToServer);

    await page.reload();
    await page.getByTestId('task-message').getByText('Encrypted message').waitFor();
    expect(await page.locator('body').innerText()).not.toContain(secret);
    await context.close();
  });

  it('shows a reply its worker sealed as encrypted in the inbox, the conversations and the thread, opens it with the passphrase, and sends an encrypted reply', async () => {
    const { context, page, apiKey, workerToken, sentToServer } = await signedUpClient();
    const number = '+381641230010';
    const secret = 'Yes, the door code 7731 works';
    const sealedReply = await new PassphraseKeyring(PASSPHRASE).seal(secret);
    const stored = await workerApi(stack, workerToken).inbound({ messages: [{ from: number, message: sealedReply, encrypted: true, external_id: `sealed-${Date.now()}` }] });
    expect(stored.status).toBe(201);

    await page.goto(`${dashboardUrl}/inbox`);
    await page.getByText('Encrypted message').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('$smsq$');
    await typePassphrase(page, PASSPHRASE);
    await page.getByText(secret).waitFor();

    // The list's last text is a cut ciphertext: only marked, never shown or opened.
    await page.getByRole('link', { name: 'Conversations' }).click();
    const threads = page.getByTestId('threads');
    await eventually(async () => expect(await threads.getByRole('listitem').first().textContent()).toContain(number), { timeoutMs: 15_000, intervalMs: 300 });
    expect(await threads.getByRole('listitem').first().textContent()).toContain('Encrypted message');
    expect(await threads.textContent()).not.toContain('$smsq$');

    await threads.getByRole('link', { name: new RegExp(`\\${number}`) }).click();
    const thread = page.getByTestId('thread');
    await thread.getByTestId('bubble-in').getByText(secret).waitFor();

    await page.getByLabel('Encrypt the reply end to end with your passphrase').check();
    await page.getByLabel('Message').fill('Great, it is sealed too');
    await page.getByRole('button', { name: 'Encrypt and send reply (1 credit)' }).click();
    await thread.getByTestId('bubble-out').getByText('Great, it is sealed too').waitFor();
    await screenshot(page, 'conversation-encrypted');
    const listed = await stack.http('GET', '/smsapi/tasks?limit=1', { headers: { 'x-api-key': apiKey } });
    expect(listed.body.items[0]).toMatchObject({ recipient: number, encrypted: true, segments: null });
    expect(listed.body.items[0].message).toMatch(/^\$smsq\$1\$/);
    expect(await openHere(listed.body.items[0].message)).toBe('Great, it is sealed too');
    await expectPassphraseKeptInPageOnly(page, context, sentToServer);
    await context.close();
  });

  it('sends with Encrypt on: one message and a CSV to many are stored sealed and open to what was typed; the preview says their parts are not known', async () => {
    const { context, page, apiKey, sentToServer } = await signedUpClient();
    const auth = { headers: { 'x-api-key': apiKey } };
    const typed = 'Sealed in the browser: meet at gate 4 😊';

    await page.goto(`${dashboardUrl}/send`);
    await page.getByLabel('Recipient').fill('064 123 4567');
    await page.getByLabel('Message', { exact: true }).fill(typed);
    // Ticked without the passphrase held, Encrypt asks for it before anything can be sent.
    await page.getByLabel('Encrypt the message end to end with your passphrase').check();
    expect(await page.getByRole('button', { name: 'Encrypt and send (1 credit)' }).isDisabled()).toBe(true);
    await page.getByLabel('Passphrase', { exact: true }).fill(PASSPHRASE);
    await page.getByRole('button', { name: 'Use passphrase' }).click();
    await page.getByRole('button', { name: 'Encrypt and send (1 credit)' }).click();
    const queued = page.getByRole('status').filter({ hasText: 'is queued for' });
    await queued.waitFor();
    const taskId = Number(/Task #(\d+)/.exec((await queued.textContent())!)![1]);

    const task = (await stack.http('GET', `/smsapi/tasks/${taskId}`, auth)).body;
    expect(task).toMatchObject({ recipient: '+381641234567', encrypted: true, segments: null, status: 'pending' });
    expect(task.message).toMatch(/^\$smsq\$1\$/);
    expect(task.message).not.toContain('gate 4');
    expect(await openHere(task.message)).toBe(typed);

    // To many: sealed once, at the preview, which cannot count the parts of what smsq cannot read.
    await page.getByLabel('CSV file').setInputFiles({ name: 'guests.csv', mimeType: 'text/csv', buffer: Buffer.from('name;phone\nAna;+381641230021\nBo;0641230022\n') });
    await page.getByLabel('Message template').fill('Hi {name}, your table is ready');
    await page.getByLabel('Encrypt the messages end to end with your passphrase').check();
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('send-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('2 of 2 rows are ready');
    await preview.getByRole('cell', { name: 'Hi Bo, your table is ready' }).waitFor();
    expect(await preview.getByText('SMS parts not known (encrypted)').count()).toBe(2);
    await screenshot(page, 'send-encrypted');
    await page.getByRole('button', { name: 'Send 2 messages (2 credits)' }).click();
    await page.getByTestId('send-summary').waitFor();
    expect(await page.getByTestId('send-summary').textContent()).toContain('2 messages are queued');

    const listed = (await stack.http('GET', '/smsapi/tasks?limit=10', auth)).body.items as Array<{ message: string; encrypted: boolean; recipient: string }>;
    const many = listed.filter((item) => item.recipient !== '+381641234567');
    expect(many.map((item) => item.encrypted)).toEqual([true, true]);
    expect((await Promise.all(many.map((item) => openHere(item.message)))).sort()).toEqual(['Hi Ana, your table is ready', 'Hi Bo, your table is ready']);
    await expectPassphraseKeptInPageOnly(page, context, sentToServer);
    await context.close();
  });
});
