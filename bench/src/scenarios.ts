import { Backlog } from './backlog.js';
import { BenchStack, type MeasuredService, type StackOptions } from './bench-stack.js';
import type { BenchSettings } from './bench-settings.js';
import type { LatencySummary, LoadResult } from './load/load-plan.js';
import { runLoad } from './load/run-load.js';
import { oneProcessScenario, withOneProcess, type OneProcessClients, type OneProcessResult } from './one-process/one-process-scenario.js';
import { CLAIM_ALONE_SQL, CLAIM_AND_REPORT_SQL, CREATE_TASK_SQL, pgbench, type PgbenchResult } from './pgbench.js';

export interface Fixture {
  apiKeys: string[];
  workerTokens: string[];
  clientIds: number[];
  gatewayIds: number[];
  /** Scenario 1b's clients, created after these so that pgbench's range of client ids holds only the clients above. */
  oneProcess: OneProcessClients;
}

export type Memory = Record<MeasuredService, number>;

/** CPU time the services spent per request (or per delivered task), in ms, and all of them together. */
export type CpuPerRequest = Record<MeasuredService | 'all', number>;

export interface QueueResult {
  smsq: LoadResult;
  cpuMsPerRequest: CpuPerRequest;
  baseline: PgbenchResult;
  ratio: number;
  memoryAtRestMb: Memory;
  memoryUnderLoadMb: Memory;
  /** The largest sum of the services' resident memory in one sample during scenario 1. */
  memoryUnderLoadTotalMb: number;
  /** Scenario 1b: the same load against the one-process implementation, right after. */
  oneProcess: OneProcessResult;
  /** Creates per batch the gateway sent to dispatch during the measured load (its `smsq_task_create_batch_size`). */
  meanBatchSize: number;
}

export interface DeliverResult {
  /** How the workers claimed: one task a request (2), or up to `batchSize` a request with batched reports (2c). */
  claim: 'next' | 'batch';
  batchSize?: number;
  backlog: number;
  smsq: LoadResult;
  /** Set when the server answered batched claims as one without them: nothing below was measured. */
  unavailable?: string;
  cpuMsPerTask?: CpuPerRequest;
  leftPending?: number;
  claimedTwiceInDatabase?: number;
  baseline?: PgbenchResult;
  ratio?: number;
}

export interface GrowthPoint {
  pending: number;
  /** Latency of the claim request alone, one worker claiming each task with its own request and reporting it. */
  api: LatencySummary;
  /** The claim statement alone in pgbench, one connection, as many claims. */
  sql: { p50Ms: number; p99Ms: number; averageMs: number };
}

export interface GrowthResult {
  small: GrowthPoint;
  large: GrowthPoint;
  /** Median claim latency through the API at the large backlog over that at the small one. */
  ratio: number;
  /** p99 of the claim through the API over the claim statement's p99 alone, at the small backlog (issue 20). */
  overSqlRatio: number;
  /** The same worker's claims against the one-process implementation (a claim statement behind `node:http`) at the small backlog: what any HTTP claim adds to the SQL on this machine. */
  oneProcess: LatencySummary;
  /** Its p99 over the claim statement's, and smsq's claim p99 over its. */
  oneProcessOverSqlRatio: number;
  overOneProcessRatio: number;
}

export interface NormalLoadResult {
  ratePerS: number;
  smsq: LoadResult;
  /** Scenario 4: the one-process implementation at the same rate, right after, and smsq's p99 over its p99. */
  oneProcess?: LoadResult;
  p99Ratio?: number;
}

/** Scenario 1d: create-tasks of many items a request, against pgbench's one transaction per task. */
export interface BulkResult {
  connections: number;
  itemsPerRequest: number;
  smsq: LoadResult;
  /** Tasks queued per second (items answered with a task). */
  tasksPerSecond: number;
  cpuMsPerTask: CpuPerRequest;
  baseline: PgbenchResult;
  ratio: number;
}

/** Scenario 4c: lone create-tasks at rest, smsq and the one-process implementation. */
export interface RestResult {
  requests: number;
  pauseMs: number;
  smsq: LatencySummary;
  oneProcess: LatencySummary;
  errors: number;
  /** smsq's p50 over the one-process implementation's. */
  ratio: number;
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

/** A client with an API key, a VIP gateway and credits for the whole run, created through the admin commands. */
export async function benchClient(stack: BenchStack, name: string): Promise<{ clientId: number; apiKey: string; gatewayId: number }> {
  const { client_id: clientId } = await stack.admin<{ client_id: number }>('client', 'create', '--name', name);
  const { api_key: apiKey } = await stack.admin<{ api_key: string }>('key', 'create', '--client', String(clientId));
  await stack.admin('credits', 'grant', '--client', String(clientId), '--amount', '10000000');
  const { phone_id: gatewayId } = await stack.admin<{ phone_id: number }>(
    'gateway', 'create', '--name', `${name}'s gateway`, '--url', 'http://127.0.0.1:9/send', '--client', String(clientId),
  );
  return { clientId, apiKey, gatewayId };
}

/** Clients for smsq and as many for the one-process implementation, and one unbound worker token per worker. */
export async function prepareFixture(stack: BenchStack, settings: BenchSettings): Promise<Fixture> {
  const fixture: Fixture = { apiKeys: [], workerTokens: [], clientIds: [], gatewayIds: [], oneProcess: { clientIds: [], apiKeys: [] } };
  for (let n = 0; n < settings.clients; n += 1) {
    const { clientId, apiKey, gatewayId } = await benchClient(stack, `bench client ${n}`);
    fixture.clientIds.push(clientId);
    fixture.apiKeys.push(apiKey);
    fixture.gatewayIds.push(gatewayId);
  }
  for (let n = 0; n < settings.clients; n += 1) {
    const { clientId, apiKey } = await benchClient(stack, `one-process client ${n}`);
    fixture.oneProcess.clientIds.push(clientId);
    fixture.oneProcess.apiKeys.push(apiKey);
  }
  for (let n = 0; n < settings.deliver.workers; n += 1) {
    const { worker_token: token } = await stack.admin<{ worker_token: string }>('worker-token', 'create');
    fixture.workerTokens.push(token);
  }
  return fixture;
}

/** The services' CPU time spent while `work` ran, per unit of work it reports. */
export async function cpuPer<T>(stack: BenchStack, work: () => Promise<T>, units: (result: T) => number): Promise<{ result: T; cpu: CpuPerRequest }> {
  const before = stack.cpuMs();
  const result = await work();
  const after = stack.cpuMs();
  const count = Math.max(1, units(result));
  const cpu = { all: 0 } as CpuPerRequest;
  for (const service of Object.keys(after) as MeasuredService[]) {
    cpu[service] = round2((after[service] - before[service]) / count);
    cpu.all = round2(cpu.all + cpu[service]);
  }
  return { result, cpu };
}

/** Samples every service's resident memory while `work` runs and answers the largest seen of each and of their sum. */
async function peakMemoryDuring<T>(stack: BenchStack, everyMs: number, work: () => Promise<T>): Promise<{ result: T; peak: Memory; peakTotal: number }> {
  const total = (memory: Memory) => Object.values(memory).reduce((sum, mb) => sum + mb, 0);
  const peak = stack.residentMb();
  let peakTotal = total(peak);
  const sampler = setInterval(() => {
    const now = stack.residentMb();
    for (const [service, mb] of Object.entries(now) as [MeasuredService, number][]) peak[service] = Math.max(peak[service], mb);
    peakTotal = Math.max(peakTotal, total(now));
  }, everyMs);
  try {
    return { result: await work(), peak, peakTotal };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Scenario 1: create-task at full speed from many connections, against pgbench doing the same
 * database work, then (1b) against the one-process implementation under the same load.
 */
export async function queueScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<QueueResult> {
  const memoryAtRestMb = stack.residentMb();
  const plan = { kind: 'create-tasks' as const, mode: 'closed' as const, baseUrl: stack.baseUrl, connections: settings.queue.connections, apiKeys: fixture.apiKeys };
  log(`queue: warm-up ${settings.queue.warmUpS} s`);
  await runLoad({ ...plan, durationMs: settings.queue.warmUpS * 1000 });
  log(`queue: ${settings.queue.connections} connections for ${settings.queue.durationS} s`);
  const batchesBefore = await batchCounts(stack);
  const { result: measured, peak, peakTotal } = await peakMemoryDuring(stack, settings.memorySampleMs, () =>
    cpuPer(stack, () => runLoad({ ...plan, durationMs: settings.queue.durationS * 1000 }), (load) => load.requests),
  );
  const batchesAfter = await batchCounts(stack);
  const meanBatchSize = round2((batchesAfter.creates - batchesBefore.creates) / Math.max(1, batchesAfter.batches - batchesBefore.batches));
  const { result: smsq, cpu: cpuMsPerRequest } = measured;
  log(`queue: ${smsq.perSecond} requests/s, p99 ${smsq.latency.p99Ms} ms, ${smsq.errors} errors; baseline pgbench ${settings.queue.durationS} s`);
  const baseline = await pgbench({
    databaseUrl: stack.databaseUrl,
    script: CREATE_TASK_SQL,
    clients: settings.queue.baselineClients,
    durationS: settings.queue.durationS,
    variables: { first_client: Math.min(...fixture.clientIds), last_client: Math.max(...fixture.clientIds) },
  });
  log(`queue: baseline ${baseline.tps} tps; the services used ${cpuMsPerRequest.all} ms of CPU per create-task`);
  const oneProcess = await oneProcessScenario(stack, settings, fixture.oneProcess, smsq);
  return {
    smsq,
    cpuMsPerRequest,
    baseline,
    ratio: round2(smsq.perSecond / baseline.tps),
    memoryAtRestMb,
    memoryUnderLoadMb: peak,
    memoryUnderLoadTotalMb: peakTotal,
    oneProcess,
    meanBatchSize,
  };
}

/** How many batches of creates the gateway has sent to dispatch, and how many creates they carried. */
async function batchCounts(stack: BenchStack): Promise<{ batches: number; creates: number }> {
  const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
  const sample = (name: string) =>
    metrics
      .split('\n')
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  return { batches: sample('smsq_task_create_batch_size_count'), creates: sample('smsq_task_create_batch_size_sum') };
}

/**
 * Scenario 4: create-task at half load, started on a fixed schedule (open loop), against smsq and
 * then, at the same rate, against the one-process implementation. Half load is half the rate the
 * one-process implementation reached in scenario 1b: the same offered load for both, set by the
 * yardstick rather than by smsq, so a slower smsq is not given an easier test.
 */
export async function normalLoadScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture, oneProcessMaxPerS: number): Promise<NormalLoadResult> {
  const ratePerS = Math.max(1, Math.round(oneProcessMaxPerS / 2));
  const smsq = await createTasksAtRate(stack, settings, fixture, ratePerS, 'half load');
  const oneProcess = await withOneProcess(stack, fixture.oneProcess, (implementation) =>
    runLoad({
      kind: 'create-tasks',
      mode: 'open',
      baseUrl: implementation.baseUrl,
      connections: settings.normalLoad.maxConnections,
      durationMs: settings.normalLoad.durationS * 1000,
      apiKeys: fixture.oneProcess.apiKeys,
      ratePerS,
    }),
  );
  const p99Ratio = round2(smsq.smsq.latency.p99Ms / oneProcess.latency.p99Ms);
  log(`half load, one-process implementation: p50 ${oneProcess.latency.p50Ms} ms, p99 ${oneProcess.latency.p99Ms} ms, ${oneProcess.errors} errors; smsq's p99 / its p99 ${p99Ratio}`);
  return { ...smsq, oneProcess, p99Ratio };
}

/**
 * Scenario 4c: lone create-tasks, one at a time with a pause between them, so each finds the
 * services at rest; the same against the one-process implementation, right after.
 */
export async function restScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<RestResult> {
  const { warmUp, requests, pauseMs } = settings.rest;
  const lone = async (baseUrl: string, apiKeys: string[]) => {
    await runLoad({ kind: 'create-tasks', mode: 'sequential', baseUrl, apiKeys, requests: warmUp, pauseMs });
    return runLoad({ kind: 'create-tasks', mode: 'sequential', baseUrl, apiKeys, requests, pauseMs });
  };
  log(`at rest: ${requests} lone create-tasks, ${pauseMs} ms apart`);
  const smsq = await lone(stack.baseUrl, fixture.apiKeys);
  const oneProcess = await withOneProcess(stack, fixture.oneProcess, (implementation) => lone(implementation.baseUrl, fixture.oneProcess.apiKeys));
  const ratio = round2(smsq.latency.p50Ms / oneProcess.latency.p50Ms);
  log(`at rest: p50 ${smsq.latency.p50Ms} ms (p99 ${smsq.latency.p99Ms}), one-process implementation p50 ${oneProcess.latency.p50Ms} ms (p99 ${oneProcess.latency.p99Ms}): ${ratio}`);
  return { requests, pauseMs, smsq: smsq.latency, oneProcess: oneProcess.latency, errors: smsq.errors + oneProcess.errors, ratio };
}

/** Scenario 1d: create-tasks of many items a request at full speed, against pgbench doing each task's database work in a transaction of its own. */
export async function bulkScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<BulkResult> {
  const { connections, itemsPerRequest, warmUpS, durationS } = settings.bulk;
  const plan = { kind: 'create-tasks' as const, mode: 'closed' as const, baseUrl: stack.baseUrl, connections, apiKeys: fixture.apiKeys, itemsPerRequest };
  log(`bulk: warm-up ${warmUpS} s`);
  await runLoad({ ...plan, durationMs: warmUpS * 1000 });
  log(`bulk: create-tasks of ${itemsPerRequest} items from ${connections} connections for ${durationS} s`);
  const { result: smsq, cpu: cpuMsPerTask } = await cpuPer(stack, () => runLoad({ ...plan, durationMs: durationS * 1000 }), (load) => load.items ?? 0);
  const tasksPerSecond = smsq.itemsPerSecond ?? 0;
  log(`bulk: ${tasksPerSecond} tasks/s (${smsq.perSecond} requests/s, p99 ${smsq.latency.p99Ms} ms, ${smsq.errors} errors); baseline pgbench ${durationS} s`);
  const baseline = await pgbench({
    databaseUrl: stack.databaseUrl,
    script: CREATE_TASK_SQL,
    clients: settings.queue.baselineClients,
    durationS,
    variables: { first_client: Math.min(...fixture.clientIds), last_client: Math.max(...fixture.clientIds) },
  });
  log(`bulk: baseline ${baseline.tps} tps; the services used ${cpuMsPerTask.all} ms of CPU per task`);
  return { connections, itemsPerRequest, smsq, tasksPerSecond, cpuMsPerTask, baseline, ratio: round2(tasksPerSecond / baseline.tps) };
}

/** Scenario 4b: create-task at a fixed rate (the issue's 100 a second), as scenario 4 does. */
export function fixedRateScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture, ratePerS: number): Promise<NormalLoadResult> {
  return createTasksAtRate(stack, settings, fixture, ratePerS, 'fixed rate');
}

/** Create-tasks started on a fixed schedule for scenario 4's duration; latency counts from the planned start. */
async function createTasksAtRate(stack: BenchStack, settings: BenchSettings, fixture: Fixture, ratePerS: number, name: string): Promise<NormalLoadResult> {
  log(`${name}: ${ratePerS} requests/s for ${settings.normalLoad.durationS} s`);
  const smsq = await runLoad({
    kind: 'create-tasks',
    mode: 'open',
    baseUrl: stack.baseUrl,
    connections: settings.normalLoad.maxConnections,
    durationMs: settings.normalLoad.durationS * 1000,
    apiKeys: fixture.apiKeys,
    ratePerS,
  });
  log(`${name}: p50 ${smsq.latency.p50Ms} ms, p99 ${smsq.latency.p99Ms} ms, ${smsq.errors} errors`);
  return { ratePerS, smsq };
}

/**
 * Scenario 2 (`claim: 'next'`, one task a claim) and 2c (`claim: 'batch'`, up to `batchSize` a
 * claim, reported together): workers drain a backlog through the worker API, against pgbench
 * doing each claim and report in SQL. 2c against a server without batched claims is answered
 * `unavailable` and measures nothing.
 */
export async function deliverScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture, claim: 'next' | 'batch' = 'next'): Promise<DeliverResult> {
  const backlog = new Backlog(stack.sql, fixture.gatewayIds);
  const { workers, batchSize } = settings.deliver;
  const name = claim === 'batch' ? 'deliver in batches' : 'deliver';
  const shape = claim === 'batch' ? { claim, batchSize } : { claim };
  await backlog.retireAll();
  await backlog.add(settings.deliver.backlog);
  log(`${name}: ${workers} workers drain ${settings.deliver.backlog} tasks${claim === 'batch' ? `, claiming up to ${batchSize} each` : ''}`);
  const { result: smsq, cpu: cpuMsPerTask } = await cpuPer(
    stack,
    () =>
      runLoad({
        kind: 'deliver',
        baseUrl: stack.baseUrl,
        workers,
        workerTokens: fixture.workerTokens,
        expectedTasks: settings.deliver.backlog,
        timeoutMs: settings.deliver.timeoutS * 1000,
        ...shape,
      }),
    (load) => load.delivered ?? 0,
  );
  if (smsq.unsupported !== undefined) {
    log(`${name}: not available, the server has no batched claims (${smsq.unsupported})`);
    await backlog.retireAll();
    return { ...shape, backlog: settings.deliver.backlog, smsq, unavailable: smsq.unsupported };
  }
  const leftPending = await backlog.pending();
  const claimedTwiceInDatabase = await backlog.claimedTwice();
  log(`${name}: ${smsq.perSecond} tasks/s, ${smsq.doubleClaims} double claims, ${leftPending} left; baseline pgbench`);

  await backlog.retireAll();
  const perWorker = Math.ceil(settings.deliver.backlog / workers);
  // A few more than are claimed, so the last claims of the run still find a task however they interleave.
  await backlog.add(perWorker * workers + workers);
  const baseline = await pgbench({ databaseUrl: stack.databaseUrl, script: CLAIM_AND_REPORT_SQL, clients: workers, transactionsPerClient: perWorker });
  log(`${name}: baseline ${baseline.tps} tps; the services used ${cpuMsPerTask.all} ms of CPU per delivered task`);
  return { ...shape, backlog: settings.deliver.backlog, smsq, cpuMsPerTask, leftPending, claimedTwiceInDatabase, baseline, ratio: round2(smsq.perSecond / baseline.tps) };
}

/**
 * Scenario 3: one worker's claim latency with a small and with a large backlog waiting, nothing
 * else running. The worker claims every task with a request of its own and reports it (no
 * `"next"`), so each claim is measured; at the small backlog the same worker then claims from the
 * one-process implementation; last, the claim statement alone in pgbench, one connection. Each
 * server is warmed up with a tenth as many claims first, and each run finds the backlog topped up
 * to the same size. The implementation shows what a claim behind any HTTP server adds to the
 * statement on this machine, so a run tells smsq's part apart from that floor.
 */
export async function growthScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<GrowthResult> {
  const backlog = new Backlog(stack.sql, fixture.gatewayIds);
  const claims = settings.growth.claims;
  const warmUp = Math.ceil(claims / 10);
  const claimEach = async (baseUrl: string, what: string): Promise<LatencySummary> => {
    const plan = { kind: 'deliver' as const, baseUrl, workers: 1, workerTokens: fixture.workerTokens, timeoutMs: 600_000, claim: 'each' as const };
    await runLoad({ ...plan, expectedTasks: warmUp });
    const load = await runLoad({ ...plan, expectedTasks: claims });
    // Error answers and empty claims are timed too: a run that did not deliver every task measured something else.
    if (load.errors > 0 || load.delivered !== claims || !load.claimLatency) {
      throw new Error(`backlog growth: ${what} delivered ${load.delivered} of ${claims} tasks with ${load.errors} errors ${JSON.stringify(load.errorsByStatus)}`);
    }
    return load.claimLatency;
  };
  const claimSql = async (): Promise<GrowthPoint['sql']> => {
    const run = await pgbench({ databaseUrl: stack.databaseUrl, script: CLAIM_ALONE_SQL, clients: 1, transactionsPerClient: claims, logLatencies: true });
    return { p50Ms: run.latency!.p50Ms, p99Ms: run.latency!.p99Ms, averageMs: run.latencyAverageMs };
  };
  const fill = async (pending: number): Promise<void> => {
    await backlog.retireAll();
    log(`backlog growth: filling ${pending} pending tasks`);
    await backlog.add(pending + warmUp, (added) => pending > 200_000 && log(`backlog growth: ${added} / ${pending}`));
  };

  await fill(settings.growth.small);
  const smallApi = await claimEach(stack.baseUrl, 'smsq');
  await backlog.add(claims + warmUp);
  const oneProcess = await withOneProcess(stack, fixture.oneProcess, (implementation) => claimEach(implementation.baseUrl, 'the one-process implementation'));
  await backlog.add(claims);
  const small: GrowthPoint = { pending: settings.growth.small, api: smallApi, sql: await claimSql() };
  log(
    `backlog growth: ${small.pending} pending: claim p50 ${small.api.p50Ms} ms, p99 ${small.api.p99Ms} ms (${small.api.count} claims); the one-process implementation's p50 ${oneProcess.p50Ms} ms, p99 ${oneProcess.p99Ms} ms; SQL alone p50 ${small.sql.p50Ms} ms, p99 ${small.sql.p99Ms} ms`,
  );

  await fill(settings.growth.large);
  const largeApi = await claimEach(stack.baseUrl, 'smsq');
  await backlog.add(claims);
  const large: GrowthPoint = { pending: settings.growth.large, api: largeApi, sql: await claimSql() };
  log(`backlog growth: ${large.pending} pending: claim p50 ${large.api.p50Ms} ms, p99 ${large.api.p99Ms} ms (${large.api.count} claims); SQL alone p50 ${large.sql.p50Ms} ms, p99 ${large.sql.p99Ms} ms`);

  return {
    small,
    large,
    ratio: round2(large.api.p50Ms / small.api.p50Ms),
    overSqlRatio: round2(small.api.p99Ms / small.sql.p99Ms),
    oneProcess,
    oneProcessOverSqlRatio: round2(oneProcess.p99Ms / small.sql.p99Ms),
    overOneProcessRatio: round2(small.api.p99Ms / oneProcess.p99Ms),
  };
}

/** Scenario 1c: scenario 1's load against smsq's four services in one process, as `npm start` runs them. */
export interface TogetherResult {
  smsq: LoadResult;
  /** CPU time of the one process per create-task, in ms. */
  cpuMsPerRequest: number;
  memoryAtRestMb: number;
  memoryUnderLoadMb: number;
}

/** Scenario 1c, on a stack of its own (its own database and namespace), started after the others stopped. */
export async function togetherScenario(options: StackOptions, settings: BenchSettings): Promise<TogetherResult> {
  log('together: the four services in one process; starting them');
  const stack = await BenchStack.start({ ...options, together: true });
  try {
    const fixture = await prepareFixture(stack, settings);
    const memoryAtRestMb = stack.totalResidentMb();
    const plan = { kind: 'create-tasks' as const, mode: 'closed' as const, baseUrl: stack.baseUrl, connections: settings.queue.connections, apiKeys: fixture.apiKeys };
    await runLoad({ ...plan, durationMs: settings.queue.warmUpS * 1000 });
    let memoryUnderLoadMb = memoryAtRestMb;
    const sampler = setInterval(() => (memoryUnderLoadMb = Math.max(memoryUnderLoadMb, stack.totalResidentMb())), settings.memorySampleMs);
    const cpuBefore = stack.totalCpuMs();
    const smsq = await runLoad({ ...plan, durationMs: settings.queue.durationS * 1000 }).finally(() => clearInterval(sampler));
    const cpuMsPerRequest = round2((stack.totalCpuMs() - cpuBefore) / Math.max(1, smsq.requests));
    log(`together: ${smsq.perSecond} requests/s, p99 ${smsq.latency.p99Ms} ms, ${smsq.errors} errors, ${memoryUnderLoadMb} MB at most`);
    return { smsq, cpuMsPerRequest, memoryAtRestMb, memoryUnderLoadMb };
  } finally {
    await stack.stop();
  }
}

