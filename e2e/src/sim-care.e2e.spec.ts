import { eventually, freePort } from '@smsq/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerViolations } from './support/chaos/invariants.js';
import { SMSGATE_LOGIN, smsgateSimEnv, smsgateWorkerEnv } from './support/smsgate-phone.js';
import { Stack, type ProcessName } from './support/stack.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';
import { registerPhone } from './support/worker-api.js';

/**
 * Issue 41's proof, end to end with SMS Gateway for Android stand-ins, each driven by the bundled
 * worker: a `sticky` client's 300 tasks to 60 recipients keep each recipient on one phone, but for
 * those of a phone whose worker is killed mid-run (they move once, with their waiting tasks); a
 * phone whose Android refuses for volume (RESULT_ERROR_LIMIT_EXCEEDED) is paused, its tasks go out
 * through the others, none twice and none charged twice; and, on the real clock, a normal task
 * created while the client's send window is shut waits for it to open while a high-priority one
 * goes at once.
 */
/** The smallest silence the services take: above the 30 s long poll. */
const SILENT_S = 31;
/** Short claims, so what the killed worker held comes back within the test; the phone's ttl ends 2 s before. */
const CLAIM_TIMEOUT_S = 20;
/** Billing keeps a charge (settles it with dispatch) this long after the debit: soon, so the ledger is whole within the test. */
const SETTLE_AFTER_S = 5;
/** Long enough that the pause outlasts the test: its end here is the owner's resume. */
const PAUSE_S = 600;
const RECIPIENTS = Array.from({ length: 60 }, (_, i) => `+3816420000${String(i).padStart(2, '0')}`);
const ROUNDS = 5;
/** A window opening sooner than this is skipped for the next minute: the tasks are created, and the high one sent, before it opens. */
const WINDOW_LEAD_MS = 20_000;
/** The worker's long poll (Stack.startWorker) and the time to send, after the window opens. */
const AFTER_OPENING_MS = 35_000;

interface PhoneSlot {
  sim: ProcessName;
  worker: `worker#${number}` | 'worker';
  url: string;
  phoneId: number;
  token: string;
  workerEnv: Record<string, string>;
}

type Task = Record<string, any>;

describe('keeping the SIMs alive: sticky routing, carrier back-off and send windows on SMS Gateway for Android stand-ins', () => {
  let stack: Stack;

  /** A stand-in phone under its own process name, answering on a port of its own. */
  async function startStandIn(sim: ProcessName): Promise<string> {
    const port = await freePort();
    stack.launch(sim, smsgateSimEnv({ GATEWAY_SIM_PORT: String(port) }));
    const url = `http://127.0.0.1:${port}`;
    await eventually(async () => expect((await fetch(`${url}/healthz`)).status).toBe(200), { timeoutMs: 45_000, intervalMs: 100 }).catch((error: Error) => {
      throw new Error(`${sim} did not answer: ${error.message}\n${stack.logsOf(sim).slice(-20).join('\n')}`);
    });
    return url;
  }

  /** A stand-in paired as the client's phone through the API, as the app does, with the bundled worker driving it. */
  async function pairPhone(apiKey: string, name: string, sim: ProcessName, worker: PhoneSlot['worker']): Promise<PhoneSlot> {
    const url = await startStandIn(sim);
    const registered = await registerPhone(stack, apiKey, { name, device_id: name, url });
    expect(registered.status).toBe(201);
    const workerEnv = await smsgateWorkerEnv(mkdtempSync(join(tmpdir(), 'smsq-sim-care-')), { WORKER_DRIVER: 'smsgate', SMSGATE_URL: url });
    const slot = { sim, worker, url, phoneId: registered.body.phone_id as number, token: registered.body.worker_token as string, workerEnv };
    startWorker(slot);
    return slot;
  }

  /** The worker, its state folder kept across restarts as a real one's is. */
  function startWorker(slot: PhoneSlot): void {
    stack.startWorker(slot.token, slot.workerEnv, slot.worker);
  }

  async function sim<T>(slot: PhoneSlot, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${slot.url}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${SMSGATE_LOGIN.user}:${SMSGATE_LOGIN.password}`).toString('base64')}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${slot.sim} ${method} ${path} answered ${response.status}`);
    return (await response.json()) as T;
  }

  const keyOf = (apiKey: string) => ({ headers: { 'x-api-key': apiKey } });

  async function sendingRules(apiKey: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const answer = await stack.http('PATCH', '/smsapi/sending-rules', { ...keyOf(apiKey), body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  async function phoneList(apiKey: string): Promise<Task[]> {
    return (await stack.http('GET', '/smsapi/phones', keyOf(apiKey))).body.phones;
  }

  /** Every task of the client, by id (GET /smsapi/tasks, page by page). */
  async function tasksOf(apiKey: string): Promise<Map<number, Task>> {
    const tasks = new Map<number, Task>();
    let cursor: string | null = null;
    do {
      const page: { body: { items: Task[]; next_cursor: string | null } } = await stack.http('GET', `/smsapi/tasks?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, keyOf(apiKey));
      for (const task of page.body.items) tasks.set(task['id'] as number, task);
      cursor = page.body.next_cursor;
    } while (cursor);
    return tasks;
  }

  beforeAll(async () => {
    stack = await Stack.start({
      profile: 'A',
      oneProcess: true,
      env: { SMSQ_PHONE_SILENT_S: String(SILENT_S), SMSQ_CLAIM_TIMEOUT_S: String(CLAIM_TIMEOUT_S), SMSQ_PAUSE_STEPS_S: String(PAUSE_S), SMSQ_SETTLE_AFTER_S: String(SETTLE_AFTER_S), SMSQ_WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  // The window's test waits on the wall clock; the three phones' tests run beside it, one after the other.
  describe.concurrent('three phones of one sticky client', () => {
    let client: { clientId: number; apiKey: string };
    let phones: PhoneSlot[];
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
    const ids: number[] = [];

    const eventsOf = (type: string, phoneId: number) => receiver.events.filter((event) => event.type === type && event.data['id'] === phoneId);
    /** SMS each phone actually sent, per smsq task, by phone id (the stand-ins count each SMS they send). */
    async function sendsByPhone(): Promise<Map<number, Record<string, number>>> {
      const counts = await Promise.all(phones.map((slot) => sim<{ tasks: Record<string, number> }>(slot, 'GET', '/sim/sends/counts')));
      return new Map(phones.map((slot, index) => [slot.phoneId, counts[index]!.tasks]));
    }
    const sendsOf = (sends: Map<number, Record<string, number>>, id: number) => [...sends].flatMap(([phoneId, tasks]) => Array<number>(tasks[String(id)] ?? 0).fill(phoneId));
    async function diagnostics(only?: number[]): Promise<string> {
      const [tasks, sends] = await Promise.all([tasksOf(client.apiKey), sendsByPhone()]);
      const shown = [...tasks.values()].filter((task) => (only ? only.includes(task['id']) : task['status'] !== 'sent')).slice(0, 40);
      return JSON.stringify({ tasks: shown.map((task) => ({ ...task, sentBy: sendsOf(sends, task['id']) })), phones: await phoneList(client.apiKey), services: stack.logsOf('services').slice(-20) }, null, 1);
    }

    /** One task to each recipient, in one create-tasks; answers each one's phone, by recipient. */
    async function round(name: string): Promise<Array<{ id: number; recipient: string; phoneId: number }>> {
      const answer = await stack.http('POST', '/smsapi/create-tasks', { ...keyOf(client.apiKey), body: { tasks: RECIPIENTS.map((recipient, i) => ({ recipient, message: `${name}: hello number ${i}` })) } });
      expect(answer.status).toBe(200);
      const results = answer.body.results as Task[];
      expect(results.filter((result) => !result['ok'])).toEqual([]);
      const created = results.map((result, i) => ({ id: result['id'] as number, recipient: RECIPIENTS[i]!, phoneId: result['phone_id'] as number }));
      ids.push(...created.map((task) => task.id));
      return created;
    }

    beforeAll(async () => {
      receiver = await startWebhookReceiver();
      client = await stack.newClient({ plan: 'pro', phone: false });
      phones = [];
      for (const [index, standIn, worker] of [[1, 'gateway-sim', 'worker'], [2, 'gateway-sim#2', 'worker#2'], [3, 'gateway-sim#3', 'worker#3']] as const) {
        phones.push(await pairPhone(client.apiKey, `sticky phone ${index}`, standIn, worker));
      }
      const hook = await stack.http('POST', '/smsapi/webhooks', { ...keyOf(client.apiKey), body: { url: receiver.url, events: ['phone.silent', 'phone.online', 'phone.paused', 'phone.resumed', 'task.rerouted'] } });
      expect(hook.status).toBe(201);
      expect(await sendingRules(client.apiKey, { routing_mode: 'sticky' })).toMatchObject({ routing_mode: 'sticky', sticky_days: 30, send_windows: [], window_open: true });
      await eventually(async () => expect((await phoneList(client.apiKey)).map((phone) => phone['state'])).toEqual(['online', 'online', 'online']), { timeoutMs: 20_000, intervalMs: 200 });
    });

    afterAll(async () => {
      await new Promise((resolve) => receiver?.server.close(resolve));
    });

    it.sequential(
      '300 tasks to 60 recipients: each recipient is served by one phone, but those of the phone whose worker was killed mid-run, which move once; every task is sent exactly once',
      { timeout: 180_000 },
      async () => {
        const [dead, ...live] = phones as [PhoneSlot, PhoneSlot, PhoneSlot];
        try {
          // Two rounds while all three phones work; the worker of phone 1 dies while the second goes out.
          const first = await round('round 1');
          const byRecipient = new Map(first.map((task) => [task.recipient, task.phoneId]));
          const perPhone = phones.map((slot) => first.filter((task) => task.phoneId === slot.phoneId).length);
          // New recipients are placed as `spread` places them: all three phones take turns.
          for (const count of perPhone) expect(count, `new recipients per phone: ${perPhone.join(', ')}`).toBeGreaterThanOrEqual(15);
          await eventually(async () => expect(Object.keys((await sendsByPhone()).get(dead.phoneId)!).length).toBeGreaterThanOrEqual(perPhone[0]!), { timeoutMs: 30_000, intervalMs: 200 });
          const second = await round('round 2');
          await eventually(async () => expect(Object.keys((await sendsByPhone()).get(dead.phoneId)!).length).toBeGreaterThanOrEqual(perPhone[0]! + 3), { timeoutMs: 30_000, intervalMs: 100 });
          await stack.kill(dead.worker, 'SIGKILL');
          const killedAt = Date.now();
          // Two more rounds before the phone is known to be silent: its recipients still queue for it.
          const beforeSilence = [...second, ...(await round('round 3')), ...(await round('round 4'))];
          for (const task of beforeSilence) expect({ recipient: task.recipient, phoneId: task.phoneId }).toEqual({ recipient: task.recipient, phoneId: byRecipient.get(task.recipient) });

          // Silent: its waiting tasks move with their recipients, and the last round goes straight to where they moved.
          await eventually(async () => expect((await phoneList(client.apiKey)).find((phone) => phone['id'] === dead.phoneId)).toMatchObject({ state: 'silent' }), {
            timeoutMs: (SILENT_S + 20) * 1000 - (Date.now() - killedAt),
            intervalMs: 500,
          });
          const last = await round('round 5');
          expect(last.filter((task) => task.phoneId === dead.phoneId)).toEqual([]);
          for (const task of last.filter((one) => byRecipient.get(one.recipient) !== dead.phoneId)) expect({ recipient: task.recipient, phoneId: task.phoneId }).toEqual({ recipient: task.recipient, phoneId: byRecipient.get(task.recipient) });

          // Everything goes out but what the dead phone may already have sent (claimed, then returned by
          // its lease): only its worker can ask it, so those wait for it rather than risk a second SMS.
          const inDoubt = (task: Task) => task['phone_id'] === dead.phoneId && task['attempts'] >= 1 && ['claimed', 'pending'].includes(task['status']);
          await eventually(
            async () => {
              const [tasks, sends] = await Promise.all([tasksOf(client.apiKey), sendsByPhone()]);
              const notOut = ids.map((id) => tasks.get(id)!).filter((task) => !(task['status'] === 'sent' || (sendsOf(sends, task['id']).length > 0 && task['phone_id'] !== dead.phoneId) || inDoubt(task)));
              expect(notOut.map((task) => task['id'])).toEqual([]);
            },
            { timeoutMs: 60_000, intervalMs: 500 },
          ).catch(async (error: Error) => {
            throw new Error(`${error.message}\n${await diagnostics()}`);
          });
          await eventually(() => expect(eventsOf('phone.silent', dead.phoneId)).toHaveLength(1), { timeoutMs: 10_000, intervalMs: 200 });

          // Back: its worker settles what waited for it without a second SMS, and the owner hears the phone is online.
          startWorker(dead);
          await eventually(async () => expect([...(await tasksOf(client.apiKey)).values()].filter((task) => task['status'] !== 'sent').map((task) => task['id'])).toEqual([]), { timeoutMs: 45_000, intervalMs: 500 }).catch(
            async (error: Error) => {
              throw new Error(`${error.message}\n${await diagnostics()}`);
            },
          );
          await eventually(() => expect(eventsOf('phone.online', dead.phoneId)).toHaveLength(1), { timeoutMs: 20_000, intervalMs: 200 });

          // Every task exactly once, from the phone it ended on; none lost.
          const [tasks, sends] = await Promise.all([tasksOf(client.apiKey), sendsByPhone()]);
          expect(ids).toHaveLength(ROUNDS * RECIPIENTS.length);
          const notOnce = ids.map((id) => tasks.get(id)!).filter((task) => sendsOf(sends, task['id']).length !== 1 || sendsOf(sends, task['id'])[0] !== task['phone_id']);
          expect(notOnce.map((task) => ({ id: task['id'], phone_id: task['phone_id'], sentBy: sendsOf(sends, task['id']) }))).toEqual([]);
          expect([...sends.values()].reduce((sum, counts) => sum + Object.values(counts).reduce((a, b) => a + b, 0), 0)).toBe(ROUNDS * RECIPIENTS.length);

          // Each recipient heard from one phone; one of the dead phone's, from it and then from the one it moved to.
          const servedBy = new Map<string, Set<number>>();
          for (const id of ids) {
            const task = tasks.get(id)!;
            servedBy.set(task['recipient'], (servedBy.get(task['recipient']) ?? new Set()).add(task['phone_id']));
          }
          expect(servedBy.size).toBe(RECIPIENTS.length);
          const moved = RECIPIENTS.filter((recipient) => byRecipient.get(recipient) === dead.phoneId);
          for (const recipient of RECIPIENTS) {
            const phonesOf = [...servedBy.get(recipient)!].sort();
            if (moved.includes(recipient)) {
              expect(phonesOf.filter((phoneId) => phoneId !== dead.phoneId), `${recipient} (on the killed phone) after the kill`).toHaveLength(1);
            } else {
              expect(phonesOf, `${recipient}, on a phone that stayed up`).toEqual([byRecipient.get(recipient)]);
            }
          }
          // The waiting tasks of the dead phone did move, and their owner was told.
          const rerouted = ids.map((id) => tasks.get(id)!).filter((task) => task['first_phone_id'] === dead.phoneId && task['phone_id'] !== dead.phoneId);
          expect(rerouted.length).toBeGreaterThan(0);
          for (const task of rerouted) {
            expect(live.map((slot) => slot.phoneId)).toContain(task['phone_id']);
            expect(task).toMatchObject({ rerouted_because: 'phone_silent' });
          }
          for (const id of ids) if (tasks.get(id)!['first_phone_id'] === tasks.get(id)!['phone_id']) expect(tasks.get(id)).toMatchObject({ rerouted_because: null });
          await eventually(
            () =>
              expect(receiver.events.filter((event) => event.type === 'task.rerouted').map((event) => event.data['id'])).toEqual(expect.arrayContaining(rerouted.map((task) => task['id']))),
            { timeoutMs: 10_000, intervalMs: 200 },
          );
        } finally {
          // The next test needs the phone back whatever happened here.
          if (stack.pidOf(dead.worker) === undefined) startWorker(dead);
        }
      },
    );

    it.sequential(
      "a phone whose Android refuses for volume (RESULT_ERROR_LIMIT_EXCEEDED) is paused and its owner told; its tasks go out through the others, none sent or charged twice; the owner's resume lifts the pause",
      { timeout: 120_000 },
      async () => {
        const victim = phones[1]!;
        await eventually(async () => expect((await phoneList(client.apiKey)).map((phone) => [phone['state'], phone['paused_until']])).toEqual(Array(3).fill(['online', null])), {
          timeoutMs: 20_000,
          intervalMs: 250,
        });
        expect(await sim(victim, 'POST', '/sim/limit', { after: 0 })).toEqual({ after: 0, left: 0 });
        const before = await stack.credits(client.clientId);
        const refusedAt = Date.now();

        const created = await round('after the limit');
        const onVictim = created.filter((task) => task.phoneId === victim.phoneId);
        expect(onVictim.length).toBeGreaterThan(0);
        expect(await stack.credits(client.clientId)).toBe(before - RECIPIENTS.length);

        // Paused, for the carrier's reason, and the owner hears it once.
        await eventually(
          async () => {
            const phone = (await phoneList(client.apiKey)).find((one) => one['id'] === victim.phoneId)!;
            expect(phone).toMatchObject({ pause_reason: 'carrier_volume', paused_until: expect.any(String) });
            expect(Date.parse(phone['paused_until'])).toBeGreaterThan(refusedAt + (PAUSE_S - 60) * 1000);
          },
          { timeoutMs: 30_000, intervalMs: 250 },
        ).catch(async (error: Error) => {
          throw new Error(`${error.message}\n${stack.logsOf(victim.worker).slice(-15).join('\n')}\n${await diagnostics(onVictim.map((task) => task.id))}`);
        });
        await eventually(() => expect(eventsOf('phone.paused', victim.phoneId)).toHaveLength(1), { timeoutMs: 15_000, intervalMs: 200 });
        expect(eventsOf('phone.paused', victim.phoneId)[0]!.data).toMatchObject({ id: victim.phoneId, pause_reason: 'carrier_volume', paused_until: expect.any(String) });

        // Its tasks go out through the other two, each once; the refusing phone sent none.
        const createdIds = created.map((task) => task.id);
        await eventually(
          async () => {
            const tasks = await tasksOf(client.apiKey);
            expect(createdIds.filter((id) => tasks.get(id)!['status'] !== 'sent')).toEqual([]);
          },
          { timeoutMs: 45_000, intervalMs: 500 },
        ).catch(async (error: Error) => {
          throw new Error(`${error.message}\n${stack.logsOf(victim.worker).slice(-15).join('\n')}\n${await diagnostics(createdIds)}`);
        });
        const [tasks, sends] = await Promise.all([tasksOf(client.apiKey), sendsByPhone()]);
        for (const id of createdIds) expect({ id, sentBy: sendsOf(sends, id) }).toEqual({ id, sentBy: [tasks.get(id)!['phone_id']] });
        // The refused attempt (and any claim given back) does not count: each was sent on its first counted attempt.
        for (const task of onVictim) {
          expect(tasks.get(task.id)).toMatchObject({ status: 'sent', first_phone_id: victim.phoneId, rerouted_because: 'phone_paused', attempts: 1 });
          expect(tasks.get(task.id)!['phone_id']).not.toBe(victim.phoneId);
        }
        expect(await sim(victim, 'GET', '/sim/limit')).toEqual({ after: 0, left: 0 });

        // One debit per task and no refund, for these and every task before them, once billing has settled each charge with dispatch.
        expect(await stack.credits(client.clientId)).toBe(before - RECIPIENTS.length);
        const db = new pg.Client({ connectionString: stack.env['DATABASE_URL'] });
        await db.connect();
        try {
          await eventually(async () => expect(await ledgerViolations(db, [client.clientId])).toEqual([]), { timeoutMs: (SETTLE_AFTER_S + 15) * 1000, intervalMs: 500 });
          const entries = await db.query<{ kind: string; count: string }>(`SELECT kind::text, count(*) FROM billing.ledger_entries WHERE client_id = $1 AND kind IN ('debit', 'refund') GROUP BY kind ORDER BY kind`, [client.clientId]);
          expect(entries.rows.map((row) => [row.kind, Number(row.count)])).toEqual([['debit', ids.length]]);
        } finally {
          await db.end();
        }

        // The owner lifts the pause; told once more.
        await sim(victim, 'POST', '/sim/limit', { after: null });
        const resumed = await stack.http('POST', `/smsapi/phones/${victim.phoneId}/resume`, keyOf(client.apiKey));
        expect(resumed.status).toBe(200);
        expect(resumed.body).toMatchObject({ id: victim.phoneId, paused_until: null, pause_reason: null });
        await eventually(() => expect(eventsOf('phone.resumed', victim.phoneId)).toHaveLength(1), { timeoutMs: 15_000, intervalMs: 200 });
        expect((await phoneList(client.apiKey)).find((one) => one['id'] === victim.phoneId)).toMatchObject({ paused_until: null, pause_reason: null });
      },
    );
  });

  describe.concurrent('a send window on the real clock', () => {
    let client: { clientId: number; apiKey: string };
    let phone: PhoneSlot;

    beforeAll(async () => {
      client = await stack.newClient({ phone: false });
      phone = await pairPhone(client.apiKey, 'window phone', 'gateway-sim#4', 'worker#4');
    });

    it.sequential("a normal task created while the window is shut waits for it to open, then goes; a high-priority one goes at once", { timeout: 150_000 }, async () => {
      const { time_zone: timeZone } = (await stack.http('GET', '/smsapi/sending-rules', keyOf(client.apiKey))).body as { time_zone: string };
      // Opens at the next minute (or the one after, when the next is too near), for two minutes, in the client's zone.
      const now = Date.now();
      let opensAt = Math.ceil((now + 1) / 60_000) * 60_000;
      if (opensAt - now < WINDOW_LEAD_MS) opensAt += 60_000;
      const from = clockIn(timeZone, opensAt);
      const until = clockIn(timeZone, opensAt + 120_000);
      const window = { days: [weekdayIn(timeZone, opensAt)], from, to: until > from ? until : '24:00' };
      const rules = await sendingRules(client.apiKey, { send_windows: [window] });
      expect(rules).toMatchObject({ send_windows: [window], time_zone: timeZone, window_open: false, window_opens_at: new Date(opensAt).toISOString() });

      const normal = await stack.createTask(client.apiKey, { recipient: RECIPIENTS[0], message: 'Your weekly summary' });
      const high = await stack.createTask(client.apiKey, { recipient: RECIPIENTS[1], message: 'Your code is 4821', priority: 'high' });
      expect([normal.status, high.status]).toEqual([201, 201]);
      const taskOf = async (id: number): Promise<Task> => (await stack.http('GET', `/smsapi/tasks/${id}`, keyOf(client.apiKey))).body;
      const sentOnPhone = async (id: number) => (await sim<Array<{ messageId: string; sentAt: string }>>(phone, 'GET', '/sim/sends')).filter((send) => send.messageId.startsWith(`smsq-${id}-`));

      // The high one goes while the window is shut; the normal one stays pending, on the phone too, until it opens.
      await eventually(async () => expect(await taskOf(high.body.id)).toMatchObject({ status: 'sent' }), { timeoutMs: opensAt - Date.now() - 2_000, intervalMs: 250 });
      const [highSent] = await sentOnPhone(high.body.id);
      expect(Date.parse(highSent!.sentAt)).toBeLessThan(opensAt);
      while (Date.now() < opensAt - 1_000) {
        expect(await taskOf(normal.body.id)).toMatchObject({ status: 'pending', attempts: 0 });
        expect(await sentOnPhone(normal.body.id)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, opensAt - 1_000 - Date.now())));
      }

      // Open: it goes, once, within the worker's long poll of the opening.
      await eventually(async () => expect(await taskOf(normal.body.id)).toMatchObject({ status: 'sent' }), { timeoutMs: opensAt + AFTER_OPENING_MS - Date.now(), intervalMs: 250 }).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${JSON.stringify(await taskOf(normal.body.id))}\n${stack.logsOf(phone.worker).slice(-15).join('\n')}`);
      });
      const sent = await sentOnPhone(normal.body.id);
      expect(sent).toHaveLength(1);
      expect(Date.parse(sent[0]!.sentAt)).toBeGreaterThanOrEqual(opensAt - 1_000);
      expect((await stack.http('GET', '/smsapi/sending-rules', keyOf(client.apiKey))).body).toMatchObject({ window_open: true });
    });
  });
});

/** `HH:MM` of the instant on a wall clock in the zone. */
function clockIn(timeZone: string, at: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(at);
}

/** The day of the week (`mon`…`sun`) of the instant in the zone. */
function weekdayIn(timeZone: string, at: number): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(at).toLowerCase();
}
