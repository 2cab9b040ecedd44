import { eventually, freePort } from '@smsq/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack } from './support/stack.js';
import { SMSGATE_LOGIN, smsgateSimEnv, smsgateWorkerEnv } from './support/smsgate-phone.js';
import { startWebhookReceiver, type WebhookEvent } from './support/webhook-receiver.js';
import { registerPhone } from './support/worker-api.js';

/**
 * Issue 18, end to end with two SMSGate stand-ins and the bundled worker against each: a phone
 * whose worker dies mid-stream hands its waiting tasks to the other phone (what it may already
 * have sent waits for it), every task is sent exactly once across both phones (the stand-ins count sends per task), a failure the phone says
 * sent nothing is sent by the other phone with one debit, a final failure is refunded once, and
 * the owner hears `phone.silent` and `phone.online`.
 */
const RECIPIENT = '+381641234567';
/** The smallest silence the services take: above the 30 s long poll. */
const SILENT_S = 31;
/** Short claims, so whatever the killed worker held comes back within the test; the phone's ttl ends 2 s before. */
const CLAIM_TIMEOUT_S = 20;
const STREAM = 30;
/** Failover sweeps and the phone watch run every 5 s; a few more for the worker's poll and the SMS. */
const FAILOVER_DEADLINE_MS = (SILENT_S + 15) * 1000;

type Slot = 1 | 2;
const SIM: Record<Slot, 'gateway-sim' | 'gateway-sim#2'> = { 1: 'gateway-sim', 2: 'gateway-sim#2' };
const WORKER: Record<Slot, 'worker' | 'worker#2'> = { 1: 'worker', 2: 'worker#2' };

/** Two phones of one client (Profile A) or two VIP gateways (Profile B), each a stand-in with its own worker. */
class TwoPhones {
  readonly simUrls = {} as Record<Slot, string>;
  readonly phoneIds = {} as Record<Slot, number>;
  private readonly workerEnvs = {} as Record<Slot, Record<string, string>>;
  private readonly tokens = {} as Record<Slot, string>;

  constructor(private readonly stack: Stack) {}

  async startSims(): Promise<void> {
    for (const slot of [1, 2] as const) {
      const port = await freePort();
      this.stack.launch(SIM[slot], smsgateSimEnv({ GATEWAY_SIM_PORT: String(port) }));
      this.simUrls[slot] = `http://127.0.0.1:${port}`;
      await eventually(async () => expect((await fetch(`${this.simUrls[slot]}/healthz`)).status).toBe(200), { timeoutMs: 30_000, intervalMs: 100 }).catch((error: Error) => {
        throw new Error(`${SIM[slot]} did not answer: ${error.message}\n${this.stack.logsOf(SIM[slot]).slice(-20).join('\n')}`);
      });
    }
  }

  async bind(slot: Slot, phoneId: number, workerToken: string): Promise<void> {
    this.phoneIds[slot] = phoneId;
    this.tokens[slot] = workerToken;
    this.workerEnvs[slot] = await smsgateWorkerEnv(mkdtempSync(join(tmpdir(), 'smsq-failover-')), { WORKER_DRIVER: 'smsgate', SMSGATE_URL: this.simUrls[slot] });
  }

  /** The worker, its state folder kept across restarts as a real one's is. */
  startWorker(slot: Slot): void {
    this.stack.startWorker(this.tokens[slot], this.workerEnvs[slot], WORKER[slot]);
  }

  async killWorker(slot: Slot, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.stack.kill(WORKER[slot], signal);
  }

  async sim<T>(slot: Slot, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.simUrls[slot]}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${SMSGATE_LOGIN.user}:${SMSGATE_LOGIN.password}`).toString('base64')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${SIM[slot]} ${method} ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  /** SMS each phone actually sent, per smsq task. */
  async sendsPerTask(): Promise<Record<Slot, Record<string, number>>> {
    const [one, two] = await Promise.all(([1, 2] as const).map((slot) => this.sim<{ tasks: Record<string, number> }>(slot, 'GET', '/sim/sends/counts')));
    return { 1: one!.tasks, 2: two!.tasks };
  }
}

// The two profiles side by side, each on its own stack: most of their time is spent waiting (on a
// phone, a lease, a killed worker), which overlaps. Within a profile the tests run one after another.
describe.concurrent.each(['A', 'B'] as const)('phones fail over, Profile %s', (profile) => {
  let stack: Stack;
  let phones: TwoPhones;
  let client: { clientId: number; apiKey: string };
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  const taskOf = async (id: number): Promise<Record<string, any>> => (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body;
  const phoneList = async (): Promise<Array<Record<string, any>>> => (await stack.http('GET', '/smsapi/phones', { headers: { 'x-api-key': client.apiKey } })).body.phones;
  const eventsOf = (type: string, phoneId: number): WebhookEvent[] => receiver.events.filter((event) => event.type === type && event.data['id'] === phoneId);
  const diagnostics = async (ids: number[]): Promise<string> =>
    JSON.stringify({ tasks: await Promise.all(ids.map(taskOf)), sends: await phones.sendsPerTask(), services: stack.logsOf('services').slice(-20) }, null, 1);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    stack = await Stack.start({ profile, oneProcess: true, env: { SMSQ_PHONE_SILENT_S: String(SILENT_S), SMSQ_CLAIM_TIMEOUT_S: String(CLAIM_TIMEOUT_S), SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    phones = new TwoPhones(stack);
    await phones.startSims();
    client = await stack.newClient({ phone: false });
    await stack.adminOk('credits', 'grant', '--client', String(client.clientId), '--amount', '200');
    for (const slot of [1, 2] as const) {
      if (profile === 'A') {
        const phone = await registerPhone(stack, client.apiKey, { name: `phone ${slot}`, device_id: `failover-${slot}`, url: phones.simUrls[slot] });
        expect(phone.status).toBe(201);
        await phones.bind(slot, phone.body.phone_id, phone.body.worker_token);
      } else {
        const { phone_id: phoneId } = await stack.adminOk('gateway', 'create', '--name', `gateway ${slot}`, '--url', phones.simUrls[slot], '--client', String(client.clientId));
        const { worker_token: token } = await stack.adminOk('worker-token', 'create', '--phone', String(phoneId));
        await phones.bind(slot, phoneId, token);
      }
      phones.startWorker(slot);
    }
    expect(phones.phoneIds[1]).toBeLessThan(phones.phoneIds[2]);
    const hook = await stack.http('POST', '/smsapi/webhooks', { headers: { 'x-api-key': client.apiKey }, body: { url: receiver.url, events: ['phone.silent', 'phone.online', 'task.rerouted'] } });
    expect(hook.status).toBe(201);
    await eventually(async () => expect((await phoneList()).map((phone) => [phone['id'], phone['state']])).toEqual([[phones.phoneIds[1], 'online'], [phones.phoneIds[2], 'online']]), { timeoutMs: 10_000, intervalMs: 200 });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it.sequential(
    "a worker killed in a stream of creates: its phone goes silent, its waiting tasks are sent by the other phone, every task exactly once; it is back once its worker is",
    { timeout: 150_000 },
    async () => {
      const [dead, live] = [phones.phoneIds[1], phones.phoneIds[2]];
      try {
        await killMidStreamAndRevive(dead, live);
      } finally {
        // The next tests need the phone back whatever happened here.
        if (stack.pidOf('worker') === undefined) phones.startWorker(1);
      }
    },
  );

  async function killMidStreamAndRevive(dead: number, live: number): Promise<void> {
      const ids: number[] = [];
      let killedAt = 0;
      for (let i = 0; i < STREAM; i++) {
        if (i === STREAM / 3) {
          await phones.killWorker(1, 'SIGKILL');
          killedAt = Date.now();
        }
        const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: `Stream message ${i}` });
        expect(created.status).toBe(201);
        ids.push(created.body.id as number);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      // Within the silence and a sweep or two, every task is sent but those the dead phone may have
      // sent before its worker died (claimed, then returned by their lease): only its worker can ask
      // it, so they wait for it rather than risk a second SMS from the other phone. Sent is what the
      // phone did: its stand-in counts each SMS it takes, and the report that marks the task sent can
      // come later on a busy machine (checked below, with every task sent exactly once).
      const inDoubt = (task: Record<string, any>): boolean => task['phone_id'] === dead && task['attempts'] >= 1 && ['claimed', 'pending'].includes(task['status']);
      await eventually(
        async () => {
          const [tasks, sends] = await Promise.all([Promise.all(ids.map(taskOf)), phones.sendsPerTask()]);
          const sentByLive = (task: Record<string, any>): boolean => task['phone_id'] === live && (sends[2][String(task['id'])] ?? 0) > 0;
          expect(tasks.filter((task) => task['status'] !== 'sent' && !sentByLive(task) && !(inDoubt(task) && task['status'] === 'pending')).map((task) => task['id'])).toEqual([]);
        },
        { timeoutMs: Math.max(10_000, FAILOVER_DEADLINE_MS - (Date.now() - killedAt)), intervalMs: 500 },
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await diagnostics(ids)}`);
      });
      const waiting = (await Promise.all(ids.map(taskOf))).filter(inDoubt);
      for (const task of waiting) expect(task).toMatchObject({ first_phone_id: dead, status: 'pending' });

      // The owner is told, and sees the phone silent with what still waits for it.
      await eventually(() => expect(eventsOf('phone.silent', dead)).toHaveLength(1), { timeoutMs: 10_000, intervalMs: 200 });
      expect(eventsOf('phone.silent', dead)[0]!.data).toMatchObject({ id: dead, state: 'silent', waiting_tasks: expect.any(Number) });
      expect(eventsOf('phone.silent', live)).toEqual([]);
      const listed = await phoneList();
      expect(listed.find((phone) => phone['id'] === dead)).toMatchObject({ state: 'silent', waiting_tasks: waiting.length });
      expect(listed.find((phone) => phone['id'] === live)).toMatchObject({ state: 'online' });

      // Back: its worker polls again, the phone is online and the owner hears it once; what waited
      // for it is settled without a second SMS (its worker asks the phone by the message's name).
      phones.startWorker(1);
      await eventually(() => expect(eventsOf('phone.online', dead)).toHaveLength(1), { timeoutMs: 20_000, intervalMs: 200 });
      expect(eventsOf('phone.online', dead)[0]!.data).toMatchObject({ id: dead, state: 'online' });
      expect((await phoneList()).find((phone) => phone['id'] === dead)).toMatchObject({ state: 'online' });
      await eventually(
        async () => expect((await Promise.all(ids.map(taskOf))).filter((task) => task['status'] !== 'sent').map((task) => task['id'])).toEqual([]),
        { timeoutMs: 30_000, intervalMs: 500 },
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await diagnostics(ids)}`);
      });

      // Every task exactly once across the two phones (the stand-ins count each SMS), by the phone it ended on.
      const sends = await phones.sendsPerTask();
      const tasks = await Promise.all(ids.map(taskOf));
      const total = (id: string): number => (sends[1][id] ?? 0) + (sends[2][id] ?? 0);
      const notOnce = tasks.filter((task) => total(String(task['id'])) !== 1).map((task) => ({ ...task, sends: { [dead]: sends[1][String(task['id'])] ?? 0, [live]: sends[2][String(task['id'])] ?? 0 } }));
      expect(notOnce).toEqual([]);
      for (const task of tasks) {
        const id = String(task['id']);
        expect({ id, sentBy: sends[1][id] ? dead : live }).toEqual({ id, sentBy: task['phone_id'] });
      }
      // Those created after the kill waited for the dead phone (Profile A: the lowest online one; Profile B: its turn) and moved.
      const moved = tasks.filter((task) => task['phone_id'] === live && task['first_phone_id'] === dead);
      expect(moved.length).toBeGreaterThan(0);
      for (const task of tasks) if (task['first_phone_id'] !== task['phone_id']) expect(task).toMatchObject({ first_phone_id: dead, phone_id: live });
      if (profile === 'A') {
        for (const task of tasks.slice(STREAM / 3)) expect(task).toMatchObject({ phone_id: live });
      }
      const rerouted = () => receiver.events.filter((event) => event.type === 'task.rerouted').map((event) => event.data);
      await eventually(() => expect(rerouted().map((task) => task['id'])).toEqual(expect.arrayContaining(moved.map((task) => task['id']))), { timeoutMs: 10_000, intervalMs: 200 });
      for (const event of rerouted()) expect(event).toMatchObject({ first_phone_id: dead, phone_id: live });
  }

  if (profile === 'A') it.sequential('a failure the phone says sent nothing (no service) is sent by the other phone, with one debit and no refund', { timeout: 60_000 }, async () => {
    const [first, other] = [phones.phoneIds[1], phones.phoneIds[2]];
    // Both online, so routing picks phone 1, the lowest; its radio has no service.
    await eventually(async () => expect((await phoneList()).map((phone) => phone['state'])).toEqual(['online', 'online']), { timeoutMs: 15_000, intervalMs: 250 });
    await phones.sim(1, 'POST', '/sim/failure', { rate: 1, kind: 'no-service' });
    const before = await stack.credits(client.clientId);

    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'No service on phone 1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ phone_id: first, credits_remaining: before - 1 });

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'sent', phone_id: other, first_phone_id: first }), { timeoutMs: 30_000, intervalMs: 250 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\n${await diagnostics([created.body.id])}`);
    });
    const sends = await phones.sendsPerTask();
    expect([sends[1][String(created.body.id)], sends[2][String(created.body.id)]]).toEqual([undefined, 1]);
    // One debit; a refund would have come with the retry report, long before the send.
    expect(await stack.credits(client.clientId)).toBe(before - 1);
    await phones.sim(1, 'POST', '/sim/failure', { rate: 0 });
  });

  if (profile === 'A') it.sequential('a final failure (generic failure) is not retried: the task fails on its phone and the credit is refunded once', { timeout: 60_000 }, async () => {
    const first = phones.phoneIds[1];
    await phones.sim(1, 'POST', '/sim/failure', { rate: 1, kind: 'generic-failure' });
    const before = await stack.credits(client.clientId);

    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'Generic failure on phone 1' });
    expect(created.body).toMatchObject({ phone_id: first, credits_remaining: before - 1 });

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'failed', phone_id: first, first_phone_id: first, attempts: 1, error: expect.stringContaining('RESULT_ERROR_GENERIC_FAILURE') }), { timeoutMs: 20_000, intervalMs: 250 });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before), { timeoutMs: 10_000, intervalMs: 200 });
    // Once: a second refund would show by now (the outbox relays within a second); and nothing was sent anywhere.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await stack.credits(client.clientId)).toBe(before);
    expect(await taskOf(created.body.id)).toMatchObject({ status: 'failed', phone_id: first });
    const sends = await phones.sendsPerTask();
    expect([sends[1][String(created.body.id)], sends[2][String(created.body.id)]]).toEqual([undefined, undefined]);
    await phones.sim(1, 'POST', '/sim/failure', { rate: 0 });
  });
});
