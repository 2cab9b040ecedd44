import { Patterns } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from './support/monitoring.js';
import { Stack, type HttpAnswer } from './support/stack.js';
import { clientWithPairedPhone, registerPhone, workerApi } from './support/worker-api.js';

const SMS = { recipient: '+381641234567', message: 'in a batch' };
/** The task object of DESIGN §3's pending-tasks, exactly (no pace set). */
const TASK_FIELDS = ['attempt', 'claim_expires_at', 'client_id', 'gateway_url', 'id', 'message', 'phone_id', 'recipient', 'scheduled_at'];

const fieldsOf = (task: Record<string, unknown>) => Object.keys(task).sort();
const idsOf = (answer: HttpAnswer) => (answer.body.tasks as Array<{ id: number }>).map((task) => task.id);

/** How many messages of `pattern` dispatch has handled, from its /metrics. */
async function handled(stack: Stack, pattern: string): Promise<number> {
  const families = await scrape(`http://127.0.0.1:${stack.env['DISPATCH_PORT']}/metrics`);
  const samples = families.find((family) => family.name === 'smsq_messages_handled_total')?.metrics ?? [];
  return samples.filter((sample) => 'labels' in sample && sample.labels?.['pattern'] === pattern).reduce((sum, sample) => sum + Number('value' in sample ? sample.value : 0), 0);
}

async function createTasks(stack: Stack, apiKey: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const created = await stack.createTask(apiKey, { ...SMS, message: `${SMS.message} ${i}` });
    expect(created.status).toBe(201);
    ids.push(created.body.id as number);
  }
  return ids;
}

describe('claims and reports in batches through the HTTP API, Profile A', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'A', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers §3 exactly without limit, and with it {"tasks": [...]}: oldest first, each task the same object, none after the wait', async () => {
    const client = await clientWithPairedPhone(stack);
    const tasks = await createTasks(stack, client.apiKey, 4);

    const single = await client.worker.poll();
    const two = await client.worker.pollMany(2);
    const rest = await client.worker.pollMany(100);
    const waitedFrom = Date.now();
    const none = await client.worker.pollMany(5, 1);

    expect(single.status).toBe(200);
    expect(fieldsOf(single.body)).toEqual(TASK_FIELDS);
    expect(single.body.id).toBe(tasks[0]);
    expect(two.status).toBe(200);
    expect(Object.keys(two.body)).toEqual(['tasks']);
    expect(idsOf(two)).toEqual(tasks.slice(1, 3));
    expect(idsOf(rest)).toEqual(tasks.slice(3));
    for (const task of [...two.body.tasks, ...rest.body.tasks]) {
      expect(fieldsOf(task)).toEqual(TASK_FIELDS);
      expect(task).toMatchObject({ phone_id: client.phoneId, client_id: client.clientId, attempt: 1, gateway_url: null });
    }
    expect(none).toMatchObject({ status: 200, body: { tasks: [] } });
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(900);
    expect((await client.worker.poll()).body).toEqual({});
  });

  it.each(['0', '101', '-1', '1.5', 'ten', '5&limit=6'])('refuses limit=%s as invalid_request, claiming nothing', async (limit) => {
    const client = await clientWithPairedPhone(stack);
    await createTasks(stack, client.apiKey, 1);

    const answer = await stack.http('GET', `/smsapi/pending-tasks?limit=${limit}`, { headers: { 'x-worker-token': client.workerToken } });

    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_request', detail: 'limit must be a whole number from 1 to 100' });
    expect(idsOf(await client.worker.pollMany(10))).toHaveLength(1);
  });

  it('answers a waiting batched poll as soon as a task is queued', async () => {
    const client = await clientWithPairedPhone(stack);
    const poll = client.worker.pollMany(10, 20);
    const [id] = await createTasks(stack, client.apiKey, 1);
    const queuedAt = Date.now();

    const answer = await poll;

    expect(idsOf(answer)).toEqual([id]);
    // Soon after it was queued, not when the 20 s wait ended.
    expect(Date.now() - queuedAt).toBeLessThan(10_000);
  });

  it('reports many tasks in one request, each answered as task-status would, refunds a failure once, and claims the next ones', async () => {
    const client = await clientWithPairedPhone(stack);
    const other = await clientWithPairedPhone(stack);
    const before = await stack.credits(client.clientId);
    const [sent, failed, conflicting, malformed] = await createTasks(stack, client.apiKey, 4);
    expect(idsOf(await client.worker.pollMany(4))).toEqual([sent, failed, conflicting, malformed]);
    const [theirs] = await createTasks(stack, other.apiKey, 1);
    expect((await other.worker.poll()).body.id).toBe(theirs);
    expect((await client.worker.report(conflicting!, 'sent')).status).toBe(200);
    const next = await createTasks(stack, client.apiKey, 2);
    const body = {
      reports: [
        { id: sent, status: 'sent' },
        { id: failed, status: 'failed', error: 'no signal' },
        { id: theirs, status: 'sent' },
        { id: conflicting, status: 'failed' },
        { id: malformed, status: 'read' },
        { id: sent, status: 'delivered', retry: true },
      ],
    };

    const answer = await client.worker.reportMany({ ...body, next: 5 });

    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { ok: true, id: sent, status: 'sent' },
      { ok: true, id: failed, status: 'failed' },
      { ok: false, error: 'not_found', detail: expect.any(String), http_status: 404 },
      { ok: false, error: 'conflict', detail: expect.any(String), http_status: 409 },
      { ok: false, error: 'invalid_request', detail: expect.stringContaining('status must be one of'), http_status: 400 },
      { ok: false, error: 'invalid_request', detail: 'retry is allowed only with status "failed", not "delivered"', http_status: 400 },
    ]);
    expect(idsOf(answer)).toEqual(next);
    expect(answer.body.tasks.map(fieldsOf)).toEqual([TASK_FIELDS, TASK_FIELDS]);
    // The same reports again: each answered as the first time (the conflict stays one), nothing refunded twice.
    const again = await client.worker.reportMany(body);
    expect(again.body).toEqual({ results: answer.body.results });
    const task = (id: number) => stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } });
    expect((await task(failed!)).body).toMatchObject({ status: 'failed', error: 'no signal' });
    expect((await task(malformed!)).body).toMatchObject({ status: 'claimed' });
    expect((await stack.http('GET', `/smsapi/tasks/${theirs}`, { headers: { 'x-api-key': other.apiKey } })).body.status).toBe('claimed');
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before - 6 + 1));
    // The malformed report's task fails now, alone: its refund is the last one owed, and the repeat's never came.
    expect((await client.worker.reportMany({ reports: [{ id: malformed, status: 'failed' }] })).body.results).toEqual([{ ok: true, id: malformed, status: 'failed' }]);
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before - 6 + 2));
  });

  it('takes back tasks given back untried: due again at once, their attempt and charge untouched, and only from their holder', async () => {
    const client = await clientWithPairedPhone(stack);
    const before = await stack.credits(client.clientId);
    const [sent, untried, alsoUntried] = await createTasks(stack, client.apiKey, 3);
    expect(idsOf(await client.worker.pollMany(3))).toEqual([sent, untried, alsoUntried]);
    const other = await clientWithPairedPhone(stack);

    const answer = await client.worker.reportMany({ reports: [{ id: sent, status: 'sent' }, { id: untried, status: 'released' }, { id: alsoUntried, status: 'released' }] });
    const byOther = await other.worker.reportMany({ reports: [{ id: sent, status: 'released' }] });
    const again = await client.worker.reportMany({ reports: [{ id: sent, status: 'released' }, { id: untried, status: 'released', error: 'why' }] });
    const single = await client.worker.report(untried!, 'released');
    const reclaimed = await client.worker.pollMany(10);

    expect(answer.body).toEqual({ results: [{ ok: true, id: sent, status: 'sent' }, { ok: true, id: untried, status: 'pending' }, { ok: true, id: alsoUntried, status: 'pending' }] });
    expect(byOther.body.results).toEqual([{ ok: false, error: 'not_found', detail: expect.any(String), http_status: 404 }]);
    expect(again.body.results).toEqual([
      { ok: false, error: 'not_found', detail: expect.any(String), http_status: 404 },
      { ok: false, error: 'invalid_request', detail: expect.any(String), http_status: 400 },
    ]);
    expect(single).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    // Claimed again at once, as their first attempt: the claim given back never counted.
    expect(reclaimed.body.tasks.map((task: { id: number; attempt: number }) => [task.id, task.attempt])).toEqual([
      [untried, 1],
      [alsoUntried, 1],
    ]);
    expect(await stack.credits(client.clientId)).toBe(before - 3);
  });

  it('refuses a malformed request whole, changing nothing', async () => {
    const client = await clientWithPairedPhone(stack);
    const [id] = await createTasks(stack, client.apiKey, 1);
    await client.worker.pollMany(1);
    const token = client.workerToken;
    const post = (rawBody: string) => stack.http('POST', '/smsapi/task-statuses', { headers: { 'x-worker-token': token, 'content-type': 'application/json' }, rawBody });

    expect((await post('{"reports": [')).body.error).toBe('invalid_json');
    for (const body of [[{ id, status: 'sent' }], {}, { reports: [] }, { reports: { id, status: 'sent' } }, { reports: Array.from({ length: 101 }, () => ({ id, status: 'sent' })) }, { reports: [{ id, status: 'sent' }], next: 0 }, { reports: [{ id, status: 'sent' }], next: 101 }, { reports: [{ id, status: 'sent' }], next: true }]) {
      const answer = await post(JSON.stringify(body));
      expect({ body, status: answer.status, error: answer.body.error }).toEqual({ body, status: 400, error: 'invalid_request' });
    }
    expect((await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body.status).toBe('claimed');
    expect((await stack.http('GET', '/smsapi/task-statuses', { headers: { 'x-worker-token': token } })).status).toBe(405);
    expect((await stack.http('POST', '/smsapi/task-statuses', { headers: { 'x-api-key': client.apiKey }, body: { reports: [{ id, status: 'sent' }] } })).status).toBe(401);
  });

  it('never hands a phone more than its daily limit, whatever the batch asks', async () => {
    const client = await clientWithPairedPhone(stack);
    const limited = await stack.http('PATCH', `/smsapi/phones/${client.phoneId}`, { headers: { 'x-api-key': client.apiKey }, body: { daily_limit: 3 } });
    expect(limited.status).toBe(200);
    const tasks = await createTasks(stack, client.apiKey, 5);

    const [first, second] = await Promise.all([client.worker.pollMany(2), client.worker.pollMany(100)]);
    const third = await client.worker.pollMany(100);

    expect([...idsOf(first), ...idsOf(second), ...idsOf(third)].sort((a, b) => a - b)).toEqual(tasks.slice(0, 3));
    const inStatus = async (status: string) => (await stack.http('GET', `/smsapi/tasks?status=${status}`, { headers: { 'x-api-key': client.apiKey } })).body.items.length;
    expect([await inStatus('claimed'), await inStatus('pending')]).toEqual([3, 2]);
  });

  it('lets the reference worker deliver a burst through gateway-sim in batches', async () => {
    const simUrl = await stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0' });
    const client = await stack.newClient({ phone: false, plan: 'starter' });
    const registered = await registerPhone(stack, client.apiKey, { name: 'sim phone', device_id: 'batched', url: simUrl });
    const batchesBefore = await handled(stack, Patterns.dispatch.taskReportBatch);
    stack.startWorker(registered.body.worker_token);
    const burst = await stack.http('POST', '/smsapi/create-tasks', { headers: { 'x-api-key': client.apiKey }, body: { tasks: Array.from({ length: 60 }, (_, i) => ({ ...SMS, message: `burst ${i}` })) } });
    expect(burst.status).toBe(200);
    const ids = (burst.body.results as Array<{ id: number }>).map((result) => result.id).sort((a, b) => a - b);

    await eventually(
      async () => {
        const page = await stack.http('GET', '/smsapi/tasks?status=sent&limit=200', { headers: { 'x-api-key': client.apiKey } });
        expect((page.body.items as Array<{ id: number }>).map((task) => task.id).sort((a, b) => a - b)).toEqual(ids);
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    await stack.kill('worker', 'SIGTERM');
    const received = (await (await fetch(`${simUrl}/messages`)).json()) as Array<{ message: string }>;
    expect(received.filter((message) => message.message.startsWith('burst ')).map((message) => message.message).sort()).toEqual(ids.map((_, i) => `burst ${i}`).sort());
    expect(await handled(stack, Patterns.dispatch.taskReportBatch)).toBeGreaterThan(batchesBefore);
    expect(await handled(stack, Patterns.dispatch.taskClaimBatch)).toBeGreaterThan(0);
    await stack.kill('gateway-sim');
  });
});

describe('claims and reports in batches through the HTTP API, Profile B', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ profile: 'B', oneProcess: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses a batched claim as the single one: 503 while no gateway is active, 403 for a disabled gateway’s token', async () => {
    const { worker_token: unbound } = await stack.adminOk('worker-token', 'create');
    const none = await workerApi(stack, unbound).pollMany(10);
    expect(none).toMatchObject({ status: 503, body: { error: 'no_active_gateway' } });

    const gateway = (await stack.adminOk('gateway', 'create', '--name', 'soon-off', '--url', 'http://10.9.9.1:8080')).phone_id;
    const { worker_token: bound } = await stack.adminOk('worker-token', 'create', '--phone', String(gateway));
    await stack.adminOk('gateway', 'disable', '--phone', String(gateway));
    expect(await workerApi(stack, bound).pollMany(10)).toMatchObject({ status: 403, body: { error: 'phone_disabled' } });
  });

  it('gives an unbound token any active gateway’s tasks in a batch, and a bound token only its gateway’s', async () => {
    const client = await stack.newClient();
    const first = (await stack.adminOk('gateway', 'create', '--name', 'first', '--url', 'http://10.9.9.2:8080')).phone_id as number;
    const second = (await stack.adminOk('gateway', 'create', '--name', 'second', '--url', 'http://10.9.9.3:8080')).phone_id as number;
    const { worker_token: unbound } = await stack.adminOk('worker-token', 'create');
    const { worker_token: bound } = await stack.adminOk('worker-token', 'create', '--phone', String(second));
    const tasks = await createTasks(stack, client.apiKey, 6);
    const onSecond = await Promise.all(tasks.map(async (id) => (await stack.http('GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': client.apiKey } })).body.phone_id === second));
    expect(onSecond.filter(Boolean)).toHaveLength(3);

    const own = await workerApi(stack, bound).pollMany(100);
    const any = await workerApi(stack, unbound).pollMany(100);

    expect(idsOf(own)).toEqual(tasks.filter((_, i) => onSecond[i]));
    expect(own.body.tasks.every((task: Record<string, unknown>) => task['phone_id'] === second && task['gateway_url'] === 'http://10.9.9.3:8080')).toBe(true);
    expect(idsOf(any)).toEqual(tasks.filter((_, i) => !onSecond[i]));
    expect(any.body.tasks.every((task: Record<string, unknown>) => task['phone_id'] === first)).toBe(true);
    for (const task of [...own.body.tasks, ...any.body.tasks]) expect(fieldsOf(task)).toEqual(TASK_FIELDS);
  });

  it('reports in a batch, refunds the failure once, and claims the next tasks with it', async () => {
    const client = await stack.newClient();
    const before = await stack.credits(client.clientId);
    const { worker_token } = await stack.adminOk('worker-token', 'create');
    const worker = workerApi(stack, worker_token);
    const [sent, failed] = await createTasks(stack, client.apiKey, 2);
    expect(idsOf(await worker.pollMany(2))).toEqual([sent, failed]);
    const [next] = await createTasks(stack, client.apiKey, 1);

    const answer = await worker.reportMany({ reports: [{ id: sent, status: 'sent' }, { id: failed, status: 'failed', error: 'carrier refused' }], next: 10 });
    const again = await worker.reportMany({ reports: [{ id: failed, status: 'failed', error: 'carrier refused' }] });

    expect(answer.body).toEqual({ results: [{ ok: true, id: sent, status: 'sent' }, { ok: true, id: failed, status: 'failed' }], tasks: [expect.objectContaining({ id: next, client_id: client.clientId })] });
    expect(again.body).toEqual({ results: [{ ok: true, id: failed, status: 'failed' }] });
    await eventually(async () => expect(await stack.credits(client.clientId)).toBe(before - 3 + 1));
  });
});
