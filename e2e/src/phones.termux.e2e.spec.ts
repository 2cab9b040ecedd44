import { Patterns, type InboxPage } from '@smsq/contracts';
import { eventually, TermuxStandIns } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Stack, WORKER_FILE } from './support/stack.js';

/**
 * The real worker (the bundled file) as it runs on a phone under Termux, with Termux:API's
 * programs imitated on PATH: they record each call and answer in the real programs' formats.
 */
const RECIPIENT = '+381641234567';
/**
 * Short, so a task left by a killed worker is claimed again within the test; long enough for the
 * worker to send (a claim must outlast Termux's timeout, below, and the 3 s the report needs).
 */
const CLAIM_TIMEOUT_S = 15;
/**
 * Each Termux:API program, the ones that answer too, must answer within this: short, so the hang
 * test ends soon, and still several times what a stand-in (a Node program) took to start beside
 * the chaos runs on a busy machine.
 */
const TERMUX_TIMEOUT_S = 5;

// The two profiles side by side, each on its own stack: most of their time is spent waiting (on a
// phone, a lease, a killed worker), which overlaps. Within a profile the tests run one after another.
describe.concurrent.each(['A', 'B'] as const)('real phones: the worker on a phone through Termux, Profile %s', (profile) => {
  let stack: Stack;
  let phone: TermuxStandIns;
  let client: { clientId: number; apiKey: string };
  let workerEnv: Record<string, string>;
  let workerToken = '';
  let stateDir: string;

  /** When the worker handed each task to its driver: the send journal's entries (the driver's state file beside the worker's). */
  function handedOver(taskIds: number[]): number[] {
    const journal = JSON.parse(readFileSync(join(stateDir, 'termux-journal.json'), 'utf8')) as { entries: { taskId: number; startedAt: number }[] };
    return taskIds.map((id) => journal.entries.find((entry) => entry.taskId === id)!.startedAt);
  }

  async function taskOf(id: number): Promise<Record<string, unknown>> {
    return (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body;
  }

  beforeAll(async () => {
    stack = await Stack.start({ profile, oneProcess: true, env: { SMSQ_CLAIM_TIMEOUT_S: String(CLAIM_TIMEOUT_S) } });
    phone = await TermuxStandIns.start();
    client = await stack.newClient({ phone: false });
    stateDir = mkdtempSync(join(tmpdir(), 'smsq-termux-'));
    workerEnv = { WORKER_STATE_DIR: stateDir, PATH: phone.env['PATH'] ?? '', TERMUX_STANDIN_DIR: phone.dir, WORKER_SENDS_PER_MINUTE: '60', WORKER_SEND_JITTER_MS: '0', WORKER_TERMUX_TIMEOUT_S: String(TERMUX_TIMEOUT_S) };
    if (profile === 'A') {
      const qrText = JSON.stringify({ base_url: stack.baseUrl, api_key: client.apiKey });
      const { stdout } = await promisify(execFile)(process.execPath, [WORKER_FILE, 'pair', qrText, '--driver', 'termux', '--name', 'My phone'], { env: { ...process.env, WORKER_STATE_DIR: stateDir } });
      expect(stdout).toMatch(/phone \d+ "My phone" .*driver termux/);
    } else {
      const { phone_id: gatewayId } = await stack.adminOk('gateway', 'create', '--name', 'termux phone', '--url', 'http://termux.invalid', '--client', String(client.clientId));
      ({ worker_token: workerToken } = await stack.adminOk('worker-token', 'create', '--phone', String(gatewayId)));
      workerEnv = { ...workerEnv, WORKER_DRIVER: 'termux' };
    }
    stack.startWorker(workerToken, workerEnv);
  });

  afterAll(async () => {
    await stack?.stop();
    await phone?.close();
  });

  it.sequential("sends each SMS with termux-sms-send, the text on standard input, paced, and confirms it from the phone's list", async () => {
    const ids: number[] = [];
    for (const message of ['First from the phone', 'Second from the phone']) ids.push((await stack.createTask(client.apiKey, { recipient: RECIPIENT, message })).body.id);

    for (const id of ids) await eventually(async () => expect(await taskOf(id)).toMatchObject({ status: 'sent' }), { timeoutMs: 20_000, intervalMs: 200 });

    const sends = phone.calls('termux-sms-send');
    expect(sends.map((send) => ({ argv: send.argv, stdin: send.stdin }))).toEqual([
      { argv: ['-n', RECIPIENT], stdin: 'First from the phone' },
      { argv: ['-n', RECIPIENT], stdin: 'Second from the phone' },
    ]);
    // 60 a minute: a second between the two hand-overs to the driver; unpaced, about 0.1 s. Measured where the worker
    // hands over, not where the stand-in records the send: each send starts a Node program or two first, and on a busy
    // machine how long that takes varies by more than the slot's margin.
    const [first, second] = handedOver(ids);
    expect(second! - first!).toBeGreaterThanOrEqual(950);
  });

  it.sequential("stores a reply from the phone's inbox once", async () => {
    await phone.receive({ from: RECIPIENT, body: 'Got both, thanks' });

    await eventually(async () => {
      const page = await stack.serviceClients().inbox.send<InboxPage>(Patterns.inbox.messagesList, { clientId: client.clientId, page: 1, pageSize: 50 });
      expect(page.items.map((item) => item.message)).toEqual(['Got both, thanks']);
    }, { timeoutMs: 20_000, intervalMs: 250 });
  });

  it.sequential('sends no second SMS when the worker is killed after termux-sms-send took the SMS and before the report', async () => {
    const balance = await stack.credits(client.clientId);
    // The app takes the SMS and sends it, but termux-sms-send never returns: the worker is still waiting when it dies.
    await phone.control({ send: { thenHang: true } });
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'Sent just before a crash' });
    await eventually(async () => expect(phone.hungPids()).toHaveLength(2), { timeoutMs: 15_000, intervalMs: 100 });

    await stack.kill('worker', 'SIGKILL');
    phone.killHung();
    await phone.control({});
    stack.startWorker(workerToken, workerEnv);

    // The claim lapses, the task is claimed again, and the new worker finds it in the send journal and the SMS list.
    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'sent', attempts: 2 }), { timeoutMs: CLAIM_TIMEOUT_S * 1000 + 20_000, intervalMs: 250 });
    expect(phone.calls('termux-sms-send').filter((send) => send.stdin === 'Sent just before a crash')).toHaveLength(1);
    expect(await stack.credits(client.clientId)).toBe(balance - 1);
  }, 90_000);

  it.sequential('reports failed, with the reason, when Termux:API never answers, and refunds the credit', async () => {
    await phone.control({ send: { outcome: 'hang' } });
    const balance = await stack.credits(client.clientId);
    const created = await stack.createTask(client.apiKey, { recipient: RECIPIENT, message: 'Termux:API is missing' });

    await eventually(async () => expect(await taskOf(created.body.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('is the Termux:API app installed') }), { timeoutMs: TERMUX_TIMEOUT_S * 1000 + 20_000, intervalMs: 250 });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(balance));
    await phone.control({});
  });
});
