// The load generator's thread: it owns the sockets and the clock of one load run, so that nothing
// it does shares an event loop with the orchestrator or with a measured service.
import { Agent, request } from 'node:http';
import { createHistogram, performance, type RecordableHistogram } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { createTaskBody, type LatencySummary, type LoadPlan, type LoadResult } from './load-plan.js';

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

class Tally {
  readonly histogram: RecordableHistogram = createHistogram();
  requests = 0;
  errors = 0;
  readonly errorsByStatus: Record<string, number> = {};

  record(startedAt: number, outcome: number | 'network', expected: number): void {
    this.requests += 1;
    this.histogram.record(Math.max(1, Math.round((performance.now() - startedAt) * 1_000_000)));
    if (outcome !== expected) {
      this.errors += 1;
      this.errorsByStatus[String(outcome)] = (this.errorsByStatus[String(outcome)] ?? 0) + 1;
    }
  }
}

function summarise(histogram: RecordableHistogram): LatencySummary {
  const ms = (ns: number) => Math.round(ns / 10_000) / 100;
  return {
    count: histogram.count,
    p50Ms: ms(histogram.percentile(50)),
    p90Ms: ms(histogram.percentile(90)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    meanMs: ms(Number.isNaN(histogram.mean) ? 0 : histogram.mean),
  };
}

function resultOf(tally: Tally, elapsedMs: number): LoadResult {
  return {
    requests: tally.requests,
    errors: tally.errors,
    errorsByStatus: tally.errorsByStatus,
    elapsedMs: Math.round(elapsedMs),
    perSecond: Math.round((tally.requests / elapsedMs) * 1000 * 10) / 10,
    latency: summarise(tally.histogram),
  };
}

async function createTasksClosed(plan: Extract<LoadPlan, { kind: 'create-tasks'; mode: 'closed' }>): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, plan.connections);
  const tally = new Tally();
  let sequence = 0;
  const began = performance.now();
  const endsAt = began + plan.durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < endsAt) {
      const n = sequence++;
      const startedAt = performance.now();
      const outcome = await http
        .send('POST', '/smsapi/create-task', { 'x-api-key': plan.apiKeys[n % plan.apiKeys.length]! }, createTaskBody(n))
        .then((answer) => answer.status)
        .catch(() => 'network' as const);
      tally.record(startedAt, outcome, 201);
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, loop));
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

/**
 * `workers` delivery loops, each with a worker token, working as the reference worker does: claim
 * a task, report it sent asking for the next one in the same request (`"next": true`), and poll
 * again only when the report brought none, until the backlog is empty. Every claimed id is
 * remembered, so a task handed to two workers is counted.
 */
async function deliver(plan: Extract<LoadPlan, { kind: 'deliver' }>): Promise<LoadResult> {
  const http = new HttpClient(plan.baseUrl, plan.workers);
  const tally = new Tally();
  const claims = new Tally();
  const claimed = new Set<number>();
  let doubleClaims = 0;
  let delivered = 0;
  const began = performance.now();
  const givesUpAt = began + plan.timeoutMs;
  const loop = async (worker: number): Promise<void> => {
    const headers = { 'x-worker-token': plan.workerTokens[worker % plan.workerTokens.length]! };
    let task: { id?: number } = {};
    while (delivered < plan.expectedTasks && performance.now() < givesUpAt) {
      if (task.id === undefined) {
        const claimStartedAt = performance.now();
        const answer = await http.send('GET', '/smsapi/pending-tasks', headers).catch(() => undefined);
        claims.record(claimStartedAt, answer?.status ?? 'network', 200);
        tally.record(claimStartedAt, answer?.status ?? 'network', 200);
        if (answer?.status !== 200) continue;
        task = JSON.parse(answer.body) as { id?: number };
        if (task.id === undefined) continue;
      }
      const id = task.id;
      if (claimed.has(id)) doubleClaims += 1;
      claimed.add(id);
      const reportStartedAt = performance.now();
      const report = await http.send('POST', '/smsapi/task-status', headers, { id, status: 'sent', next: true }).catch(() => undefined);
      tally.record(reportStartedAt, report?.status ?? 'network', 200);
      task = {};
      if (report?.status !== 200) continue;
      delivered += 1;
      task = (JSON.parse(report.body) as { next?: { id?: number } }).next ?? {};
    }
  };
  await Promise.all(Array.from({ length: plan.workers }, (_, worker) => loop(worker)));
  const elapsedMs = performance.now() - began;
  http.close();
  return {
    ...resultOf(tally, elapsedMs),
    delivered,
    doubleClaims,
    claimLatency: summarise(claims.histogram),
    perSecond: Math.round((delivered / elapsedMs) * 1000 * 10) / 10,
  };
}

function run(plan: LoadPlan): Promise<LoadResult> {
  if (plan.kind === 'deliver') return deliver(plan);
  return plan.mode === 'closed' ? createTasksClosed(plan) : createTasksOpen(plan);
}

const result = await run(workerData as LoadPlan);
parentPort?.postMessage(result);
