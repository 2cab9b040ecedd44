import { Patterns, type InboxPage, type PhoneDetails } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsgateSim, smsgateSimEnv, smsgateWorkerEnv } from './support/smsgate-phone.js';
import { Stack, WORKER_FILE } from './support/stack.js';

/**
 * The real worker (the bundled file, as users run it) driving SMS Gateway for Android through
 * gateway-sim's SMSGate mode, which answers as the app's Local Server does.
 */
const RECIPIENT = '+381641234567';
/** Short claims, so a crashed worker's task comes back within the test; the phone's ttl ends 2 s before (13 s, over the 10 s the worker needs, with a second for the Date header's rounding and two for a busy machine). */
const CLAIM_TIMEOUT_S = 15;

interface SimSend {
  messageId: string;
  phoneNumbers: string[];
  text: string;
}

// The two profiles side by side, each on its own stack: most of their time is spent waiting (on a
// phone, a lease, a killed worker), which overlaps. Within a profile the tests run one after another.
describe.concurrent.each(['A', 'B'] as const)('real phones: the worker drives SMS Gateway for Android, Profile %s', (profile) => {
  let stack: Stack;
  let simUrl: string;
  let stateDir: string;
  let client: { clientId: number; apiKey: string };
  let workerEnv: Record<string, string>;
  let workerToken = '';
  let phoneId: number;

  async function startPhone(env: Record<string, string> = {}): Promise<void> {
    await stack.kill('gateway-sim');
    simUrl = await stack.startGatewaySim(smsgateSimEnv(env));
  }

  const sim = <T>(method: string, path: string, body?: unknown) => smsgateSim<T>(simUrl, method, path, body);

  /** How the worker names a task's SMS on the phone: its id and scheduled time. */
  function messageKeyOf(task: { id: number; scheduled_at: string }): string {
    return `smsq-${task.id}-${task.scheduled_at.replace(/\D/g, '')}`;
  }

  async function sendsOf(task: { id: number; scheduled_at: string }): Promise<SimSend[]> {
    return (await sim<SimSend[]>('GET', '/sim/sends')).body.filter((send) => send.messageId === messageKeyOf(task));
  }

  async function taskOf(id: number): Promise<Record<string, unknown>> {
    return (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body;
  }

  function startWorker(): void {
    stack.startWorker(workerToken, workerEnv);
  }

  beforeAll(async () => {
    stack = await Stack.start({ profile, oneProcess: true, env: { SMSQ_CLAIM_TIMEOUT_S: String(CLAIM_TIMEOUT_S) } });
    await startPhone();
    client = await stack.newClient({ phone: false });
    stateDir = mkdtempSync(join(tmpdir(), 'smsq-phone-'));
    workerEnv = await smsgateWorkerEnv(stateDir);
    if (profile === 'A') {
      // What the dashboard's pairing QR code carries.
      const qrText = JSON.stringify({ base_url: stack.baseUrl, api_key: client.apiKey });
      const { stdout } = await promisify(execFile)(process.execPath, [WORKER_FILE, 'pair', qrText, '--driver', 'smsgate', '--gateway-url', simUrl, '--name', 'Office phone'], { env: { ...process.env, WORKER_STATE_DIR: stateDir } });
      expect(stdout).toMatch(/Paired with smsq at .*: phone \d+ "Office phone"/);
      expect(statSync(join(stateDir, 'phone.json')).mode & 0o777).toBe(0o600);
      const [phone] = await stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId: client.clientId });
      expect(phone).toMatchObject({ name: 'Office phone', url: simUrl, active: true });
      phoneId = phone!.id;
    } else {
      ({ phone_id: phoneId } = await stack.adminOk('gateway', 'create', '--name', 'office phone', '--url', simUrl, '--client', String(client.clientId)));
      ({ worker_token: workerToken } = await stack.adminOk('worker-token', 'create', '--phone', String(phoneId)));
      workerEnv = { ...workerEnv, WORKER_DRIVER: 'smsgate', SMSGATE_URL: simUrl };
    }
    startWorker();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it.sequential("sends a queued SMS named by the task's id and time; the task ends sent, with delivered_at once the carrier confirms", async () => {
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'Your code is 4821' });
    expect(created.status).toBe(201);

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'sent', delivered_at: expect.any(String), segments: 1 }), { timeoutMs: 20_000, intervalMs: 200 });

    expect(await sendsOf(created.body)).toEqual([expect.objectContaining({ phoneNumbers: [RECIPIENT], text: 'Your code is 4821' })]);
    const onPhone = await sim<{ state: string }>('GET', `/message/${messageKeyOf(created.body)}`);
    expect(onPhone.body.state).toBe('Delivered');
  });

  it.sequential("shows the phone's battery and connection, as the app reports them", async () => {
    await eventually(async () => {
      const phones = await stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, profile === 'A' ? { clientId: client.clientId } : { kind: 'gateway' });
      const phone = phones.find((candidate) => candidate.id === phoneId);
      expect(phone?.lastSeenAt).toEqual(expect.any(String));
      expect(phone?.health).toMatchObject({ batteryPercent: 90, charging: true });
    }, { timeoutMs: 15_000, intervalMs: 200 });
  });

  it.sequential("stores a reply once, from the app's webhook and its inbox alike", async () => {
    const before = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: client.clientId, page: 1, pageSize: 50 });
    expect((await sim('POST', '/sim/incoming', { from: RECIPIENT, message: 'Thanks, received' })).status).toBe(201);

    await eventually(async () => {
      const page = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: client.clientId, page: 1, pageSize: 50 });
      expect(page.items.filter((item) => item.message === 'Thanks, received')).toHaveLength(1);
    }, { timeoutMs: 15_000, intervalMs: 200 });
    // The webhook and at least two pulls of the app's inbox have offered it by now; it is there once.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const after = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: client.clientId, page: 1, pageSize: 50 });
    expect(after.total).toBe(before.total + 1);
    expect(after.items.find((item) => item.message === 'Thanks, received')).toMatchObject({ from: RECIPIENT, phoneId });
  });

  it.sequential('sends no second SMS when the worker is killed between the phone taking the SMS and the report, and the task still ends right', async () => {
    const balance = await stack.credits(client.clientId);
    await sim('POST', '/sim/hold', { hold: true });
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'Held by a slow phone' });
    await eventually(async () => expect((await sim('GET', `/message/${messageKeyOf(created.body)}`)).status).toBe(200), { timeoutMs: 15_000, intervalMs: 100 });

    await stack.kill('worker', 'SIGKILL');
    await sim('POST', '/sim/hold', { hold: false });
    startWorker();

    // The claim lapses, the task is claimed again, and the worker asks the phone before sending anything.
    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'sent', attempts: 2 }), { timeoutMs: CLAIM_TIMEOUT_S * 1000 + 20_000, intervalMs: 250 });
    expect(await sendsOf(created.body)).toHaveLength(1);
    expect(await stack.credits(client.clientId)).toBe(balance - 1);
  }, 90_000);

  it.sequential(profile === 'A' ? 'pairing again from a new address moves the phone there and rotates its token' : 'pairing is refused with advice, since Profile B has no own phones', async ({ expect }) => {
    const qrText = JSON.stringify({ base_url: stack.baseUrl, api_key: client.apiKey });
    const movedTo = simUrl.replace('127.0.0.1', 'localhost');
    const pair = promisify(execFile)(process.execPath, [WORKER_FILE, 'pair', qrText, '--driver', 'smsgate', '--gateway-url', movedTo], { env: { ...process.env, WORKER_STATE_DIR: profile === 'A' ? stateDir : mkdtempSync(join(tmpdir(), 'smsq-phone-')) } });
    if (profile === 'B') {
      // The test's own expect: the other profile's tests run at the same time, and a promise assertion belongs to one test.
      await expect(pair).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('ask its admin for a worker token') });
      return;
    }
    const before = JSON.parse(readFileSync(join(stateDir, 'phone.json'), 'utf8')) as { workerToken: string; phoneId: number };

    await pair;

    const after = JSON.parse(readFileSync(join(stateDir, 'phone.json'), 'utf8')) as { workerToken: string; phoneId: number };
    expect(after.phoneId).toBe(before.phoneId);
    expect(after.workerToken).not.toBe(before.workerToken);
    const [phone] = await stack.serviceClients().dispatch.send<PhoneDetails[]>(Patterns.dispatch.phoneList, { clientId: client.clientId });
    expect(phone).toMatchObject({ id: phoneId, url: movedTo, name: 'Office phone' });
    const stale = await stack.http('GET', '/smsapi/pending-tasks', { headers: { 'x-worker-token': before.workerToken } });
    expect(stale.status).toBe(401);
  });

  it.sequential('reports what the phone says when it fails, and refunds the credit once', async () => {
    await stack.kill('worker', 'SIGTERM');
    await startPhone({ GATEWAY_SIM_FAILURE_RATE: '1' });
    startWorker();
    const balance = await stack.credits(client.clientId);
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'This one will not go out' });

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('RESULT_ERROR_GENERIC_FAILURE') }), { timeoutMs: 20_000, intervalMs: 200 });

    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(balance));
    expect(await sendsOf(created.body)).toEqual([]);
  });

  it.sequential('honours a STOP sent to the phone: what was queued to that number is cancelled and refunded, the next create-task is 409 and charges nothing; START lets it through', async () => {
    const number = '+381641230099';
    const balance = await stack.credits(client.clientId);
    const queued = await stack.createTask(client.apiKey, { recipient: number, message: 'Your appointment next year', scheduled_at: '2030-01-15 09:00:00' });
    expect(queued.status).toBe(201);

    expect((await sim('POST', '/sim/incoming', { from: number, message: ' Stop! ' })).status).toBe(201);

    await eventually(async () => expect(await taskOf(queued.body.id)).toMatchObject({ status: 'failed', error: 'opted_out' }), { timeoutMs: 30_000, intervalMs: 200 });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(balance));
    const refused = await stack.createTask(client.apiKey, { recipient: '+381 64 123 0099', message: 'Still there?' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'recipient_opted_out' });
    expect(await stack.credits(client.clientId)).toBe(balance);
    const listed = await stack.http('GET', '/smsapi/opt-outs', { headers: { 'x-api-key': client.apiKey } });
    expect(listed.body.items).toEqual([{ number, opted_out_at: expect.any(String), source: 'reply' }]);

    expect((await sim('POST', '/sim/incoming', { from: number, message: 'START' })).status).toBe(201);
    await eventually(async () => expect((await stack.http('GET', '/smsapi/opt-outs', { headers: { 'x-api-key': client.apiKey } })).body.items).toEqual([]), { timeoutMs: 30_000, intervalMs: 200 });
    // Queued again, and charged (the stand-in fails every send since the test before: whether it goes out is not this test's matter).
    const welcomeBack = await stack.createTask(client.apiKey, { recipient: number, message: 'Welcome back' });
    expect(welcomeBack.status).toBe(201);
    expect(welcomeBack.body.credits_remaining).toBe(balance - 1);
  });
});
