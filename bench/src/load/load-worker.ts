// The load generator's thread: it owns the sockets and the clock of one load run, so that nothing
// it does shares an event loop with the orchestrator or with a measured service.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { createTaskBody, createTasksBody, type LoadPlan, type LoadResult } from './load-plan.js';
import { submitsClosed, submitsSequential } from './smpp-submits.js';
import { resultOf, summarise, Tally } from './tally.js';

interface Answer {
  status: number;
  body: string;
}

class HttpClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string, sockets: number) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Items of a create-tasks answer that were answered with a task (the others carry create-task's error). */
function itemsCreated(body: string): number {
  const results = (JSON.parse(body) as { results?: Array<{ ok?: boolean }> }).results ?? [];
  return results.filter((result) => result.ok === true).length;
}

async function createTasksClosed(plan: Extract<LoadPlan, { kind: 'create-tasks'; mode: 'closed' }>): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, plan.connections);
  const tally = new Tally();
  const perRequest = plan.itemsPerRequest;
  const totalItems = plan.totalItems ?? Infinity;
  let sequence = 0;
  let items = 0;
  const began = performance.now();
  const endsAt = began + plan.durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < endsAt && sequence < totalItems) {
      const n = sequence;
      const size = Math.min(perRequest ?? 1, totalItems - n);
      sequence += perRequest ?? 1;
      const startedAt = performance.now();
      const headers = { 'x-api-key': plan.apiKeys[(n / (perRequest ?? 1)) % plan.apiKeys.length]! };
      const outcome = await (perRequest === undefined
        ? http.send('POST', '/smsapi/create-task', headers, createTaskBody(n, plan.recipients)).then((answer) => answer.status)
        : http.send('POST', '/smsapi/create-tasks', headers, createTasksBody(n, size, plan.recipients)).then((answer) => {
            // A list answered 200 with some items refused is an error too: every item should have been queued.
            const created = answer.status === 200 ? itemsCreated(answer.body) : 0;
            items += created;
            return answer.status === 200 && created < size ? 207 : answer.status;
          })
      ).catch(() => 'network' as const);
      tally.record(startedAt, outcome, perRequest === undefined ? 201 : 200);
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, loop));
  const elapsedMs = performance.now() - began;
  const result = resultOf(tally, elapsedMs);
  http.close();
  return perRequest === undefined ? result : { ...result, items, itemsPerSecond: Math.round((items / elapsedMs) * 1000 * 10) / 10 };
}

async function createTasksSequential(plan: Extract<LoadPlan, { kind: 'create-tasks'; mode: 'sequential' }>): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, 1);
  const tally = new Tally();
  const began = performance.now();
  for (let n = 0; n < plan.requests; n += 1) {
    if (n > 0) await new Promise((resolve) => setTimeout(resolve, plan.pauseMs));
    const startedAt = performance.now();
    const outcome = await http
      .send('POST', '/smsapi/create-task', { 'x-api-key': plan.apiKeys[n % plan.apiKeys.length]! }, createTaskBody(n, plan.recipients))
      .then((answer) => answer.status)
      .catch(() => 'network' as const);
    tally.record(startedAt, outcome, 201);
  }
  const result = resultOf(tally, performance.now() - began);
  http.close();
  return result;
}

async function createTasksOpen(plan: Extract<LoadPlan, { kind: 'create-tasks'; mode: 'open' }>): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, plan.connections);
  const tally = new Tally();
  const intervalMs = 1000 / plan.ratePerS;
  const total = Math.floor((plan.durationMs / 1000) * plan.ratePerS);
  const began = performance.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < total; n += 1) {
    const plannedAt = began + n * intervalMs;
    const wait = plannedAt - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent: Promise<void> = http
      .send('POST', '/smsapi/create-task', { 'x-api-key': plan.apiKeys[n % plan.apiKeys.length]! }, createTaskBody(n))
      .then((answer) => answer.status)
      .catch(() => 'network' as const)
      .then((outcome) => {
        tally.record(plannedAt, outcome, 201);
        inFlight.delete(sent);
      });
    inFlight.add(sent);
  }
  await Promise.all(inFlight);
  const result = resultOf(tally, performance.now() - began);
  http.close();
  return result;
}

type DeliverPlan = Extract<LoadPlan, { kind: 'deliver' }>;

/** What every delivery loop of a run shares: the tallies, the ids claimed so far and how many were delivered. */
class DeliveryRun {
  readonly tally = new Tally();
  readonly claims = new Tally();
  private readonly claimed = new Set<number>();
  doubleClaims = 0;
  delivered = 0;
  unsupported: string | undefined;
  readonly began = performance.now();
  private readonly givesUpAt: number;

  constructor(private readonly plan: DeliverPlan) {
    this.givesUpAt = this.began + plan.timeoutMs;
  }

  get going(): boolean {
    return this.delivered < this.plan.expectedTasks && performance.now() < this.givesUpAt && this.unsupported === undefined;
  }

  /** Remembers a claimed id; a task handed out twice is counted. */
  claim(id: number): void {
    if (this.claimed.has(id)) this.doubleClaims += 1;
    this.claimed.add(id);
  }

  result(): LoadResult {
    const elapsedMs = performance.now() - this.began;
    return {
      ...resultOf(this.tally, elapsedMs),
      delivered: this.delivered,
      doubleClaims: this.doubleClaims,
      claimLatency: summarise(this.claims.histogram),
      perSecond: Math.round((this.delivered / elapsedMs) * 1000 * 10) / 10,
      ...(this.unsupported === undefined ? {} : { unsupported: this.unsupported }),
    };
  }
}

/**
 * One task per claim, as a worker written to DESIGN §3 works: claim a task, report it sent
 * (asking for the next one in the same request, `"next": true`, unless `claim` is `each`), and
 * poll again only when the report brought none, until the backlog is empty.
 */
async function deliverOneByOne(http: HttpClient, run: DeliveryRun, headers: Record<string, string>, askNext: boolean): Promise<void> {
  let task: { id?: number } = {};
  while (run.going) {
    if (task.id === undefined) {
      const claimStartedAt = performance.now();
      const answer = await http.send('GET', '/smsapi/pending-tasks', headers).catch(() => undefined);
      run.claims.record(claimStartedAt, answer?.status ?? 'network', 200);
      run.tally.record(claimStartedAt, answer?.status ?? 'network', 200);
      if (answer?.status !== 200) continue;
      task = JSON.parse(answer.body) as { id?: number };
      if (task.id === undefined) continue;
    }
    const id = task.id;
    run.claim(id);
    const reportStartedAt = performance.now();
    const report = await http.send('POST', '/smsapi/task-status', headers, askNext ? { id, status: 'sent', next: true } : { id, status: 'sent' }).catch(() => undefined);
    run.tally.record(reportStartedAt, report?.status ?? 'network', 200);
    task = {};
    if (report?.status !== 200) continue;
    run.delivered += 1;
    if (askNext) task = (JSON.parse(report.body) as { next?: { id?: number } }).next ?? {};
  }
}

/** A claim answer's tasks, or undefined when the answer is not the batched `{"tasks": [...]}`. */
function batchOf(body: string): Array<{ id: number }> | undefined {
  try {
    const tasks = (JSON.parse(body) as { tasks?: unknown }).tasks;
    return Array.isArray(tasks) ? (tasks as Array<{ id: number }>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Batched claims and reports (issue 20): claim up to `size` (`GET /smsapi/pending-tasks?limit=`),
 * report them together through `POST /smsapi/task-statuses`, which claims up to `size` more in
 * the same request (`"next"`); poll again only when a report brought none. A server that answers
 * `?limit=` with 400 or with anything but `{"tasks": [...]}`, or has no `task-statuses`, does not
 * offer batched claims: the run stops and says so instead of measuring something else.
 */
async function deliverInBatches(http: HttpClient, run: DeliveryRun, headers: Record<string, string>, size: number): Promise<void> {
  let tasks: Array<{ id: number }> = [];
  while (run.going) {
    if (tasks.length === 0) {
      const claimStartedAt = performance.now();
      const answer = await http.send('GET', `/smsapi/pending-tasks?limit=${size}`, headers).catch(() => undefined);
      run.claims.record(claimStartedAt, answer?.status ?? 'network', 200);
      run.tally.record(claimStartedAt, answer?.status ?? 'network', 200);
      if (answer?.status === 400) {
        run.unsupported = `GET /smsapi/pending-tasks?limit=${size} answered 400: ${answer.body.slice(0, 200)}`;
        return;
      }
      if (answer?.status !== 200) continue;
      const batch = batchOf(answer.body);
      if (!batch) {
        run.unsupported = `GET /smsapi/pending-tasks?limit=${size} answered without "tasks": ${answer.body.slice(0, 200)}`;
        return;
      }
      tasks = batch;
      if (tasks.length === 0) continue;
    }
    for (const task of tasks) run.claim(task.id);
    const reportStartedAt = performance.now();
    const reports = tasks.map((task) => ({ id: task.id, status: 'sent' }));
    const answer = await http.send('POST', '/smsapi/task-statuses', headers, { reports, next: size }).catch(() => undefined);
    tasks = [];
    if (answer?.status === 404 || answer?.status === 405) {
      run.unsupported = `POST /smsapi/task-statuses answered ${answer.status}: ${answer.body.slice(0, 200)}`;
      return;
    }
    if (answer?.status !== 200) {
      run.tally.record(reportStartedAt, answer?.status ?? 'network', 200);
      continue;
    }
    const body = JSON.parse(answer.body) as { results?: Array<{ ok?: boolean; status?: string }>; tasks?: Array<{ id: number }> };
    const sent = (body.results ?? []).filter((result) => result.ok === true && result.status === 'sent').length;
    run.delivered += sent;
    // One report answered with anything but "sent" is an error of the run, as a refused task-status is.
    run.tally.record(reportStartedAt, sent === reports.length ? 200 : 207, 200);
    tasks = body.tasks ?? [];
  }
}

/** `workers` delivery loops, each with a worker token, until the backlog is delivered; every claimed id is remembered, so a task handed to two workers is counted. */
async function deliver(plan: DeliverPlan): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, plan.workers);
  const run = new DeliveryRun(plan);
  const claim = plan.claim ?? 'next';
  await Promise.all(
    Array.from({ length: plan.workers }, (_, worker) => {
      const headers = { 'x-worker-token': plan.workerTokens[worker % plan.workerTokens.length]! };
      return claim === 'batch' ? deliverInBatches(http, run, headers, plan.batchSize ?? 50) : deliverOneByOne(http, run, headers, claim === 'next');
    }),
  );
  const result = run.result();
  http.close();
  return result;
}

function run(plan: LoadPlan): Promise<LoadResult> {
  if (plan.kind === 'deliver') return deliver(plan);
  if (plan.kind === 'submit-sm') return plan.mode === 'closed' ? submitsClosed(plan) : submitsSequential(plan);
  if (plan.mode === 'sequential') return createTasksSequential(plan);
  return plan.mode === 'closed' ? createTasksClosed(plan) : createTasksOpen(plan);
}

const result = await run(workerData as LoadPlan);
parentPort?.postMessage(result);
