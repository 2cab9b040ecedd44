import { Patterns, type PhoneDetails } from '@smsq/contracts';
import { decrypt, encrypt, PassphraseKeyring } from '@smsq/client';
import { eventually } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsgateSim, smsgateSimEnv, smsgateWorkerEnv } from './support/smsgate-phone.js';
import { query } from './support/sql.js';
import { Stack, WORKER_FILE } from './support/stack.js';
import { startWebhookReceiver, type WebhookEvent } from './support/webhook-receiver.js';

const PASSPHRASE = 'a passphrase only the client and its worker know';
/** Text that must never appear in smsq's database, answers, webhooks or logs: only on the phone. */
const SECRET_TEXT = `Your e2e code is 739164, valid 5 minutes. ${'Two SMS parts, as smsq learns only from the worker that opened it. '.repeat(2)}`;
const RECIPIENT = '+381641234567';

interface SimSend {
  messageId: string;
  phoneNumbers: string[];
  text: string;
}

/**
 * End-to-end encrypted text (docs/guide/encryption.md), as a user meets it: a client seals its message,
 * smsq stores and serves only the sealed text, the bundled worker (paired with the passphrase)
 * opens it for SMS Gateway for Android's stand-in, and seals the replies it posts.
 */
describe('end-to-end encrypted messages', () => {
  let stack: Stack;
  let simUrl: string;
  let client: { clientId: number; apiKey: string };
  let receiver: { server: Server; url: string; events: WebhookEvent[] };

  const taskOf = async (id: number) => (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body;

  const sim = <T>(method: string, path: string, body?: unknown) => smsgateSim<T>(simUrl, method, path, body);

  /** The rows of every table of smsq's schemas whose text, any column, holds `text`. */
  async function rowsHolding(text: string): Promise<string[]> {
    const databaseUrl = stack.env['DATABASE_URL']!;
    const tables = await query<{ name: string }>(
      databaseUrl,
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const found: string[] = [];
    for (const { name } of tables) {
      const [row] = await query<{ n: number }>(databaseUrl, `SELECT count(*)::int AS n FROM ${name} t WHERE t::text LIKE $1`, [`%${text}%`]);
      if (row!.n > 0) found.push(`${name}: ${row!.n}`);
    }
    expect(tables.length).toBeGreaterThan(10);
    return found;
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    stack = await Stack.start({ profile: 'A', oneProcess: true, env: { SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    simUrl = await stack.startGatewaySim(smsgateSimEnv());
    client = await stack.newClient({ phone: false });
    const webhook = await stack.http('POST', '/smsapi/webhooks', { headers: { 'x-api-key': client.apiKey }, body: { url: receiver.url, events: ['task.sent', 'task.failed', 'message.received'] } });
    expect(webhook.status).toBe(201);

    // Paired as the dashboard's QR code pairs it, the passphrase given to the worker alone, from a file.
    const stateDir = mkdtempSync(join(tmpdir(), 'smsq-e2e-phone-'));
    const passphraseFile = join(stateDir, 'passphrase.txt');
    writeFileSync(passphraseFile, `${PASSPHRASE}\n`, { mode: 0o600 });
    const qrText = JSON.stringify({ base_url: stack.baseUrl, api_key: client.apiKey });
    await promisify(execFile)(process.execPath, [WORKER_FILE, 'pair', qrText, '--driver', 'smsgate', '--gateway-url', simUrl, '--name', 'Sealed phone', '--passphrase-file', passphraseFile], {
      env: { ...process.env, WORKER_STATE_DIR: stateDir },
    });
    const [phone] = await stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId: client.clientId });
    expect(phone).toMatchObject({ name: 'Sealed phone', active: true });
    stack.startWorker('', { ...(await smsgateWorkerEnv(stateDir)), WORKER_ENCRYPT_REPLIES: 'true' });
  });

  afterAll(async () => {
    // Every line of the run, its replies' and its refused requests' included: none holds a plaintext or the passphrase.
    for (const service of stack ? (['services', 'worker'] as const) : []) {
      expect(stack.logsOf(service).length).toBeGreaterThan(0);
      expect(stack.logsOf(service).filter((line) => [SECRET_TEXT, PASSPHRASE, 'Thanks, see you', 'Nobody reads this'].some((secret) => line.includes(secret)))).toEqual([]);
    }
    await stack?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('sends the plaintext from the phone, while smsq, its answers, webhooks, database and logs hold only the sealed text', async () => {
    const sealed = await encrypt(PASSPHRASE, SECRET_TEXT);
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: sealed, encrypted: true });
    expect(created.status).toBe(201);
    const queued = await taskOf(created.body.id);
    expect(queued).toMatchObject({ message: sealed, encrypted: true });
    // Its parts are known once the worker that opened it reports them.
    if (queued.status !== 'sent') expect(queued.segments).toBeNull();

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'sent', message: sealed, encrypted: true, segments: 2 }), { timeoutMs: 30_000, intervalMs: 200 });

    const sends = (await sim<SimSend[]>('GET', '/sim/sends')).body;
    expect(sends.filter((send) => send.text === SECRET_TEXT)).toEqual([expect.objectContaining({ phoneNumbers: [RECIPIENT] })]);
    await eventually(() => expect(receiver.events.find((event) => event.type === 'task.sent' && event.data['id'] === created.body.id)?.data).toMatchObject({ message: sealed, encrypted: true }));

    expect(JSON.stringify(receiver.events)).not.toContain(SECRET_TEXT);
    expect(await rowsHolding(SECRET_TEXT)).toEqual([]);
    expect(await rowsHolding(sealed)).toEqual(expect.arrayContaining([expect.stringMatching(/^dispatch\.tasks: 1$/)]));
  });

  it('fails a task sealed under another passphrase, unsent, with its reason, and gives its credit back once', async () => {
    const balance = await stack.credits(client.clientId);
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: await encrypt(new PassphraseKeyring('not the worker passphrase'), 'Nobody reads this'), encrypted: true });
    expect(created.status).toBe(201);
    expect(created.body.credits_remaining).toBe(balance - 1);

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'failed', error: 'cannot decrypt: the passphrase is wrong or the message was altered' }), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(balance));
    expect((await sim<SimSend[]>('GET', '/sim/sends')).body.filter((send) => send.text === 'Nobody reads this')).toEqual([]);
    // The refund is once: a while later the balance is still what it was before the task.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await stack.credits(client.clientId)).toBe(balance);
  });

  it('refuses a create whose message is not sealed, naming the problem, and charges nothing', async () => {
    const balance = await stack.credits(client.clientId);
    const refused = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: SECRET_TEXT, encrypted: true });

    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_message', detail: expect.stringContaining('not a sealed message') });
    expect(await stack.credits(client.clientId)).toBe(balance);
  });

  it('stores a reply sealed by the worker, and its STOP, which smsq cannot read, still opts the number out', async () => {
    const number = '+381641230077';
    expect((await sim('POST', '/sim/incoming', { from: number, message: 'Thanks, see you' })).status).toBe(201);
    expect((await sim('POST', '/sim/incoming', { from: number, message: 'STOP' })).status).toBe(201);

    await eventually(async () => expect((await stack.http('GET', '/smsapi/opt-outs', { headers: { 'x-api-key': client.apiKey } })).body.items).toEqual([{ number, opted_out_at: expect.any(String), source: 'reply' }]), {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    const replies = await eventually(() => {
      const received = receiver.events.filter((event) => event.type === 'message.received' && event.data['from'] === number);
      expect(received).toHaveLength(2);
      return received;
    });
    const texts = await Promise.all(replies.map((event) => decrypt(PASSPHRASE, event.data['message'] as string)));
    expect(texts.sort()).toEqual(['STOP', 'Thanks, see you']);
    expect(await rowsHolding('Thanks, see you')).toEqual([]);
    const refused = await stack.createTask(client.apiKey, { recipient: number, message: await encrypt(PASSPHRASE, 'Still there?'), encrypted: true });
    expect(refused.status).toBe(409);
  });
});
