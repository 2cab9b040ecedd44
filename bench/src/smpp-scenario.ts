import { Backlog } from './backlog.js';
import type { BenchSettings } from './bench-settings.js';
import type { BenchStack, MeasuredService } from './bench-stack.js';
import { median } from './failover-scenario.js';
import type { LatencySummary, LoadPlan, LoadResult, SmppBindPlan } from './load/load-plan.js';
import { runLoad } from './load/run-load.js';
import { benchClient } from './scenarios.js';

/** How a round sends its tasks: create-task over HTTP, or submit_sm over SMPP. */
export type SmppPath = 'http' | 'smpp';

/** The services' CPU time per task, in ms: the four, the SMPP service, and all of them together. */
export type SmppCpuPerTask = Record<MeasuredService | 'smpp' | 'all', number>;

/** One round of scenario 6. */
export interface SmppRound {
  path: SmppPath;
  tasksPerSecond: number;
  latency: LatencySummary;
  /** Tasks of the scenario's client that the round left in dispatch: every request's, or the round fails. */
  created: number;
  cpuMsPerTask: SmppCpuPerTask;
}

/** One round of scenario 6b. */
export interface SmppLoneRound {
  path: SmppPath;
  latency: LatencySummary;
}

export interface SmppResult {
  window: number;
  recipients: number;
  /** Scenario 6. */
  tasksPerRound: number;
  rounds: SmppRound[];
  /** Median tasks/s of the rounds through HTTP and through SMPP. */
  httpPerSecond: number;
  smppPerSecond: number;
  /** Each pair's (SMPP / HTTP) tasks/s, in the order the pairs ran, and their median: the figure the target is judged on. */
  pairRatios: number[];
  ratio: number;
  /** Median CPU time of all the services per task, each way. */
  cpuMsPerTask: { http: number; smpp: number };
  /** Scenario 6b. */
  lone: {
    requests: number;
    pauseMs: number;
    rounds: SmppLoneRound[];
    /** Each pair's (SMPP / HTTP) p50 and p99, and their medians; the p50's is the figure the target is judged on. */
    p50PairRatios: number[];
    p99PairRatios: number[];
    p50Ratio: number;
    p99Ratio: number;
    /** Medians of the rounds' p50 and p99, each way. */
    http: { p50Ms: number; p99Ms: number };
    smpp: { p50Ms: number; p99Ms: number };
  };
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Scenarios 6 and 6b (issue 42): submit_sm against create-task over HTTP, the same work each way.
 * One client of the scenario's own, made as scenario 1's are (an API key, a VIP gateway, bonus
 * credits), with an SMPP credential; both paths send its tasks to the same `recipients` numbers,
 * no delivery receipt asked, so each request is one create-task of one client either way. Tasks
 * are left pending; every round starts with all earlier ones retired, as Deliver's rounds do.
 *
 * 6: pairs of rounds of `tasks` tasks, create-task from `window` keep-alive connections against
 * submit_sm on one transmitter bind with `window` outstanding, alternating which goes first, after
 * one unmeasured round of each. 6b: pairs of rounds of lone requests, one at a time, `pauseMs`
 * apart, the same way.
 */
export async function smppScenario(stack: BenchStack, settings: BenchSettings): Promise<SmppResult> {
  const config = settings.smpp;
  const { clientId, apiKey, gatewayId } = await benchClient(stack, 'smpp bench client');
  const { system_id: systemId, password } = await stack.admin<{ system_id: string; password: string }>('smpp-credential', 'create', '--client', String(clientId));
  const bind: SmppBindPlan = { ...stack.smppAddress, systemId, password, timeoutMs: config.timeoutS * 1000 };
  const backlog = new Backlog(stack.sql, [gatewayId]);
  const { window, recipients } = config;

  const throughputPlan = (path: SmppPath, tasks: number): LoadPlan =>
    path === 'http'
      ? { kind: 'create-tasks', mode: 'closed', baseUrl: stack.baseUrl, connections: window, durationMs: 600_000, apiKeys: [apiKey], totalItems: tasks, recipients }
      : { kind: 'submit-sm', mode: 'closed', smpp: bind, window, total: tasks, recipients };
  const lonePlan = (path: SmppPath, requests: number): LoadPlan =>
    path === 'http'
      ? { kind: 'create-tasks', mode: 'sequential', baseUrl: stack.baseUrl, apiKeys: [apiKey], requests, pauseMs: config.pauseMs, recipients }
      : { kind: 'submit-sm', mode: 'sequential', smpp: bind, requests, pauseMs: config.pauseMs, recipients };
  /** Runs a plan from a clean slate and checks every request made its task. */
  const measured = async (path: SmppPath, plan: LoadPlan, requests: number): Promise<{ load: LoadResult; created: number; cpuMsPerTask: SmppCpuPerTask }> => {
    await backlog.retireAll();
    const firstNewId = await maxTaskId(stack);
    const before = cpuNow(stack);
    const load = await runLoad(plan);
    const cpuMsPerTask = cpuPerTask(before, cpuNow(stack), requests);
    const created = await tasksSince(stack, clientId, firstNewId);
    if (load.errors > 0 || created !== requests) {
      throw new Error(`smpp: ${requests} requests through ${path} made ${created} tasks with ${load.errors} errors ${JSON.stringify(load.errorsByStatus)}`);
    }
    return { load, created, cpuMsPerTask };
  };

  log(`smpp: warm-up, ${config.warmUpTasks} tasks each way`);
  for (const path of ['http', 'smpp'] as const) await measured(path, throughputPlan(path, config.warmUpTasks), config.warmUpTasks);
  log(`smpp: ${config.pairs} pairs of rounds of ${config.tasks} tasks, create-task from ${window} connections against submit_sm with ${window} outstanding on one bind`);
  const rounds: SmppRound[] = [];
  const pairRatios: number[] = [];
  for (let pair = 0; pair < config.pairs; pair++) {
    const done: SmppRound[] = [];
    for (const path of pair % 2 === 0 ? (['http', 'smpp'] as const) : (['smpp', 'http'] as const)) {
      const { load, created, cpuMsPerTask } = await measured(path, throughputPlan(path, config.tasks), config.tasks);
      const round: SmppRound = { path, tasksPerSecond: load.perSecond, latency: load.latency, created, cpuMsPerTask };
      log(`smpp: ${path.padEnd(4)} ${round.tasksPerSecond} tasks/s (p50 ${load.latency.p50Ms} ms, p99 ${load.latency.p99Ms} ms; ${cpuMsPerTask.all} ms of CPU per task, smpp ${cpuMsPerTask.smpp})`);
      done.push(round);
    }
    const ratio = byPath(done, 'smpp').tasksPerSecond / byPath(done, 'http').tasksPerSecond;
    log(`smpp: pair ${pair + 1}: smpp / http ${round2(ratio)}`);
    pairRatios.push(ratio);
    rounds.push(...done);
  }
  const medianOf = (path: SmppPath, of: (round: SmppRound) => number) => round2(median(rounds.filter((round) => round.path === path).map(of)));

  log(`smpp: lone requests, ${config.lonePairs} pairs of rounds of ${config.loneRequests}, ${config.pauseMs} ms apart`);
  for (const path of ['http', 'smpp'] as const) await measured(path, lonePlan(path, config.loneWarmUp), config.loneWarmUp);
  const loneRounds: SmppLoneRound[] = [];
  const p50PairRatios: number[] = [];
  const p99PairRatios: number[] = [];
  for (let pair = 0; pair < config.lonePairs; pair++) {
    const done: SmppLoneRound[] = [];
    for (const path of pair % 2 === 0 ? (['http', 'smpp'] as const) : (['smpp', 'http'] as const)) {
      const { load } = await measured(path, lonePlan(path, config.loneRequests), config.loneRequests);
      log(`smpp: lone ${path.padEnd(4)} p50 ${load.latency.p50Ms} ms, p99 ${load.latency.p99Ms} ms`);
      done.push({ path, latency: load.latency });
    }
    const http = byPath(done, 'http').latency;
    const smpp = byPath(done, 'smpp').latency;
    p50PairRatios.push(smpp.p50Ms / http.p50Ms);
    p99PairRatios.push(smpp.p99Ms / http.p99Ms);
    log(`smpp: lone pair ${pair + 1}: smpp / http p50 ${round2(smpp.p50Ms / http.p50Ms)}, p99 ${round2(smpp.p99Ms / http.p99Ms)}`);
    loneRounds.push(...done);
  }
  const loneOf = (path: SmppPath) => {
    const these = loneRounds.filter((round) => round.path === path).map((round) => round.latency);
    return { p50Ms: round2(median(these.map((latency) => latency.p50Ms))), p99Ms: round2(median(these.map((latency) => latency.p99Ms))) };
  };
  await backlog.retireAll();

  return {
    window,
    recipients,
    tasksPerRound: config.tasks,
    rounds,
    httpPerSecond: medianOf('http', (round) => round.tasksPerSecond),
    smppPerSecond: medianOf('smpp', (round) => round.tasksPerSecond),
    pairRatios: pairRatios.map(round2),
    ratio: round2(median(pairRatios)),
    cpuMsPerTask: { http: medianOf('http', (round) => round.cpuMsPerTask.all), smpp: medianOf('smpp', (round) => round.cpuMsPerTask.all) },
    lone: {
      requests: config.loneRequests,
      pauseMs: config.pauseMs,
      rounds: loneRounds,
      p50PairRatios: p50PairRatios.map(round2),
      p99PairRatios: p99PairRatios.map(round2),
      p50Ratio: round2(median(p50PairRatios)),
      p99Ratio: round2(median(p99PairRatios)),
      http: loneOf('http'),
      smpp: loneOf('smpp'),
    },
  };
}

function byPath<T extends { path: SmppPath }>(rounds: T[], path: SmppPath): T {
  return rounds.find((round) => round.path === path)!;
}

function cpuNow(stack: BenchStack): Record<MeasuredService | 'smpp', number> {
  return { ...stack.cpuMs(), smpp: stack.smppCpuMs() };
}

function cpuPerTask(before: Record<MeasuredService | 'smpp', number>, after: Record<MeasuredService | 'smpp', number>, tasks: number): SmppCpuPerTask {
  const cpu = { all: 0 } as SmppCpuPerTask;
  for (const service of Object.keys(after) as Array<MeasuredService | 'smpp'>) {
    cpu[service] = round2((after[service] - before[service]) / Math.max(1, tasks));
    cpu.all = round2(cpu.all + cpu[service]);
  }
  return cpu;
}

async function maxTaskId(stack: BenchStack): Promise<number> {
  const { rows } = await stack.sql.query<{ id: number | null }>(`SELECT max(id) AS id FROM "dispatch"."tasks"`);
  return rows[0]?.id ?? 0;
}

async function tasksSince(stack: BenchStack, clientId: number, afterId: number): Promise<number> {
  const { rows } = await stack.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM "dispatch"."tasks" WHERE client_id = $1 AND id > $2`, [clientId, afterId]);
  return rows[0]?.count ?? 0;
}
