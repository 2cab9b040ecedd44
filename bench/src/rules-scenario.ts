import { Backlog } from './backlog.js';
import type { BenchStack } from './bench-stack.js';
import type { BenchSettings } from './bench-settings.js';
import { median } from './failover-scenario.js';
import type { LatencySummary } from './load/load-plan.js';
import { runLoad } from './load/run-load.js';
import { cpuPer, type CpuPerRequest, type Fixture } from './scenarios.js';

/** One round of scenario 2d: a backlog created through the API, then drained. */
export interface RulesRound {
  rulesOn: boolean;
  /** The backlog's build: tasks created per second through `create-tasks`, and the services' CPU per created task. */
  createsPerSecond: number;
  created: number;
  createErrors: number;
  createCpuMsPerTask: CpuPerRequest;
  /** Its drain by Deliver's workers: the figure the target is judged on. */
  tasksPerSecond: number;
  delivered: number;
  doubleClaims: number;
  leftPending: number;
  claimedTwiceInDatabase: number;
  cpuMsPerTask: CpuPerRequest;
  /** A client's recipients whose tasks of the round went to more than one gateway: 0 when sticky did its work. */
  recipientsOnSeveralGateways: number;
}

/** One round of scenario 3b: a lone worker's claims, the rules on or off. */
export interface RulesClaimRound {
  rulesOn: boolean;
  claim: LatencySummary;
}

export interface RulesResult {
  clients: number;
  gatewaysPerClient: number;
  recipients: number;
  cap: number;
  /** Scenario 2d. */
  backlog: number;
  rounds: RulesRound[];
  /** Median tasks/s of the drains with the rules off and on. */
  offPerSecond: number;
  onPerSecond: number;
  /** Each pair's (on / off), in the order the pairs ran, and their median: the figure the target is judged on. */
  pairRatios: number[];
  ratio: number;
  /** The builds (informative): median creates/s off and on, and the median of the pairs' (on / off). */
  creates: { offPerSecond: number; onPerSecond: number; pairRatios: number[]; ratio: number; offCpuMs: number; onCpuMs: number };
  /** Median dispatch CPU per delivered task, off and on. */
  dispatchCpuMs: { off: number; on: number };
  /** Scenario 3b. */
  claims: {
    pending: number;
    claims: number;
    rounds: RulesClaimRound[];
    p50PairRatios: number[];
    p99PairRatios: number[];
    /** Medians over the pairs of (on / off). */
    p50Ratio: number;
    p99Ratio: number;
    /** Medians of the rounds' p50 and p99, off and on. */
    off: { p50Ms: number; p99Ms: number };
    on: { p50Ms: number; p99Ms: number };
  };
}

interface RulesClient {
  clientId: number;
  apiKey: string;
  gatewayIds: number[];
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;
/** A send window over the whole week: every task stays claimable, and every claim reads the windows. */
const WHOLE_WEEK = 'daily 00:00-24:00';

/**
 * Scenarios 2d and 3b (issue 41): what a client's sending rules cost, against the same work with
 * them off, in the same run. The rules on are all three at once: `sticky` routing, send windows
 * that cover the whole week (so every task stays claimable, but each claim evaluates them) and a
 * monthly recipients cap on every gateway, far above what the scenario sends to (so both rounds
 * deliver the same tasks). The scenario's clients are its own, each with several VIP gateways (so
 * sticky has a choice to make) and texting one set of numbers again and again.
 *
 * 2d: pairs of rounds, each building its backlog through `create-tasks` (so routing applies) and
 * draining it with Deliver's workers, one task a claim; the pairs alternate which round goes first.
 * One unmeasured round with the rules on first, so every measured round finds the sticky mapping
 * and the month's recipients as a client that keeps texting them would.
 * 3b: scenario 3's lone worker at its small backlog, in pairs of rounds, rules off and on.
 */
export async function rulesScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<RulesResult> {
  const config = settings.rules;
  const { workers } = settings.deliver;
  const clients = await rulesClients(stack, settings);
  const gatewayIds = clients.flatMap((client) => client.gatewayIds);
  const backlog = new Backlog(stack.sql, gatewayIds);
  log(`rules: ${clients.length} clients with ${config.gatewaysPerClient} VIP gateways each, ${config.recipients} recipients; ${config.pairs} pairs of rounds of ${config.backlog} tasks`);

  const runRound = async (rulesOn: boolean): Promise<RulesRound> => {
    await setRules(stack, clients, config.cap, rulesOn);
    await backlog.retireAll();
    const firstNewId = await maxTaskId(stack);
    const { result: build, cpu: createCpuMsPerTask } = await cpuPer(
      stack,
      () =>
        runLoad({
          kind: 'create-tasks',
          mode: 'closed',
          baseUrl: stack.baseUrl,
          connections: config.connections,
          durationMs: config.timeoutS * 1000,
          apiKeys: clients.map((client) => client.apiKey),
          itemsPerRequest: config.itemsPerRequest,
          totalItems: config.backlog,
          recipients: config.recipients,
        }),
      (load) => load.items ?? 0,
    );
    const created = build.items ?? 0;
    if (created !== config.backlog) throw new Error(`rules: created ${created} of ${config.backlog} tasks with ${build.errors} errors ${JSON.stringify(build.errorsByStatus)}`);
    await analyze(stack);
    const { result: drain, cpu: cpuMsPerTask } = await cpuPer(
      stack,
      () => runLoad({ kind: 'deliver', baseUrl: stack.baseUrl, workers, workerTokens: fixture.workerTokens, expectedTasks: created, timeoutMs: config.timeoutS * 1000 }),
      (load) => load.delivered ?? 0,
    );
    const round: RulesRound = {
      rulesOn,
      createsPerSecond: build.itemsPerSecond ?? 0,
      created,
      createErrors: build.errors,
      createCpuMsPerTask,
      tasksPerSecond: drain.perSecond,
      delivered: drain.delivered ?? 0,
      doubleClaims: drain.doubleClaims ?? 0,
      cpuMsPerTask,
      ...(await roundChecks(stack, firstNewId)),
    };
    log(
      `rules: ${rulesOn ? 'on ' : 'off'} built at ${round.createsPerSecond} tasks/s (${createCpuMsPerTask.all} ms CPU per task), drained at ${round.tasksPerSecond} tasks/s (dispatch ${cpuMsPerTask.dispatch} ms CPU per task); ` +
        `${round.leftPending} left, ${round.doubleClaims + round.claimedTwiceInDatabase} double claims, ${round.recipientsOnSeveralGateways} recipients on more than one gateway`,
    );
    return round;
  };

  log('rules: an unmeasured round with the rules on first (sticky mapping and the month\'s recipients made)');
  await runRound(true);
  const rounds: RulesRound[] = [];
  const pairRatios: number[] = [];
  const createRatios: number[] = [];
  for (let pair = 0; pair < config.pairs; pair++) {
    const order = pair % 2 === 0 ? [false, true] : [true, false];
    const done: RulesRound[] = [];
    for (const rulesOn of order) done.push(await runRound(rulesOn));
    const off = done.find((round) => !round.rulesOn)!;
    const on = done.find((round) => round.rulesOn)!;
    pairRatios.push(on.tasksPerSecond / off.tasksPerSecond);
    createRatios.push(on.createsPerSecond / off.createsPerSecond);
    rounds.push(...done);
  }
  await backlog.retireAll();

  const claims = await lonelyClaims(stack, settings, fixture, clients, backlog);
  await setRules(stack, clients, config.cap, false);
  await backlog.retireAll();

  const off = rounds.filter((round) => !round.rulesOn);
  const on = rounds.filter((round) => round.rulesOn);
  const result: RulesResult = {
    clients: clients.length,
    gatewaysPerClient: config.gatewaysPerClient,
    recipients: config.recipients,
    cap: config.cap,
    backlog: config.backlog,
    rounds,
    offPerSecond: round2(median(off.map((round) => round.tasksPerSecond))),
    onPerSecond: round2(median(on.map((round) => round.tasksPerSecond))),
    pairRatios: pairRatios.map(round2),
    ratio: round2(median(pairRatios)),
    creates: {
      offPerSecond: round2(median(off.map((round) => round.createsPerSecond))),
      onPerSecond: round2(median(on.map((round) => round.createsPerSecond))),
      pairRatios: createRatios.map(round2),
      ratio: round2(median(createRatios)),
      offCpuMs: round2(median(off.map((round) => round.createCpuMsPerTask.all))),
      onCpuMs: round2(median(on.map((round) => round.createCpuMsPerTask.all))),
    },
    dispatchCpuMs: { off: round2(median(off.map((round) => round.cpuMsPerTask.dispatch))), on: round2(median(on.map((round) => round.cpuMsPerTask.dispatch))) },
    claims,
  };
  log(
    `rules: Deliver off ${result.offPerSecond} tasks/s, on ${result.onPerSecond} tasks/s; ratio ${result.ratio} (median of ${result.pairRatios.join(', ')}); ` +
      `creates off ${result.creates.offPerSecond}/s, on ${result.creates.onPerSecond}/s (${result.creates.ratio})`,
  );
  log(
    `rules: lone claim off p50 ${claims.off.p50Ms} ms, p99 ${claims.off.p99Ms} ms; on p50 ${claims.on.p50Ms} ms, p99 ${claims.on.p99Ms} ms; ` +
      `on / off p50 ${claims.p50Ratio} (${claims.p50PairRatios.join(', ')}), p99 ${claims.p99Ratio} (${claims.p99PairRatios.join(', ')})`,
  );
  return result;
}

/**
 * Scenario 3b: scenario 3's method at its small backlog (written with SQL onto the scenario's
 * gateways; a claim reads no routing), in pairs of rounds that alternate which goes first.
 */
async function lonelyClaims(stack: BenchStack, settings: BenchSettings, fixture: Fixture, clients: RulesClient[], backlog: Backlog): Promise<RulesResult['claims']> {
  const pending = settings.growth.small;
  const claims = settings.growth.claims;
  const warmUp = Math.ceil(claims / 10);
  const plan = { kind: 'deliver' as const, baseUrl: stack.baseUrl, workers: 1, workerTokens: fixture.workerTokens, timeoutMs: 600_000, claim: 'each' as const };
  const runRound = async (rulesOn: boolean): Promise<RulesClaimRound> => {
    await setRules(stack, clients, settings.rules.cap, rulesOn);
    await backlog.retireAll();
    await backlog.add(pending + warmUp);
    await runLoad({ ...plan, expectedTasks: warmUp });
    const load = await runLoad({ ...plan, expectedTasks: claims });
    if (load.errors > 0 || load.delivered !== claims || !load.claimLatency) {
      throw new Error(`rules: lone claims delivered ${load.delivered} of ${claims} tasks with ${load.errors} errors ${JSON.stringify(load.errorsByStatus)}`);
    }
    log(`rules: lone claim, rules ${rulesOn ? 'on ' : 'off'}: p50 ${load.claimLatency.p50Ms} ms, p99 ${load.claimLatency.p99Ms} ms (${load.claimLatency.count} claims)`);
    return { rulesOn, claim: load.claimLatency };
  };

  const rounds: RulesClaimRound[] = [];
  const p50PairRatios: number[] = [];
  const p99PairRatios: number[] = [];
  for (let pair = 0; pair < settings.rules.claimPairs; pair++) {
    const order = pair % 2 === 0 ? [false, true] : [true, false];
    const done: RulesClaimRound[] = [];
    for (const rulesOn of order) done.push(await runRound(rulesOn));
    const off = done.find((round) => !round.rulesOn)!.claim;
    const on = done.find((round) => round.rulesOn)!.claim;
    p50PairRatios.push(on.p50Ms / off.p50Ms);
    p99PairRatios.push(on.p99Ms / off.p99Ms);
    rounds.push(...done);
  }
  const of = (rulesOn: boolean) => {
    const these = rounds.filter((round) => round.rulesOn === rulesOn).map((round) => round.claim);
    return { p50Ms: round2(median(these.map((claim) => claim.p50Ms))), p99Ms: round2(median(these.map((claim) => claim.p99Ms))) };
  };
  return {
    pending,
    claims,
    rounds,
    p50PairRatios: p50PairRatios.map(round2),
    p99PairRatios: p99PairRatios.map(round2),
    p50Ratio: round2(median(p50PairRatios)),
    p99Ratio: round2(median(p99PairRatios)),
    off: of(false),
    on: of(true),
  };
}

/** The scenario's clients, made through the admin commands: an API key, credits for the run and several VIP gateways each. */
async function rulesClients(stack: BenchStack, settings: BenchSettings): Promise<RulesClient[]> {
  const clients: RulesClient[] = [];
  for (let n = 0; n < settings.rules.clients; n++) {
    const name = `rules bench client ${n}`;
    const { client_id: clientId } = await stack.admin<{ client_id: number }>('client', 'create', '--name', name);
    const { api_key: apiKey } = await stack.admin<{ api_key: string }>('key', 'create', '--client', String(clientId));
    await stack.admin('credits', 'grant', '--client', String(clientId), '--amount', '10000000');
    const gatewayIds: number[] = [];
    for (let g = 0; g < settings.rules.gatewaysPerClient; g++) {
      const { phone_id: id } = await stack.admin<{ phone_id: number }>('gateway', 'create', '--name', `${name}'s gateway ${g}`, '--url', 'http://127.0.0.1:9/send', '--client', String(clientId));
      gatewayIds.push(id);
    }
    clients.push({ clientId, apiKey, gatewayIds });
  }
  return clients;
}

/**
 * Turns the rules on or off as an admin would: per client `sending-rules set` (sticky and
 * windows over the whole week, or `first` and no windows), per gateway `gateway set
 * --monthly-recipients` (the cap, or none); then checks the database holds what was asked.
 */
async function setRules(stack: BenchStack, clients: RulesClient[], cap: number, on: boolean): Promise<void> {
  for (const client of clients) {
    await stack.admin('sending-rules', 'set', '--client', String(client.clientId), '--mode', on ? 'sticky' : 'first', '--windows', on ? WHOLE_WEEK : 'none');
    for (const id of client.gatewayIds) await stack.admin('gateway', 'set', '--phone', String(id), '--monthly-recipients', on ? String(cap) : 'none');
  }
  const { rows } = await stack.sql.query<{ sticky: number; windowed: number; capped: number }>(
    `SELECT (SELECT count(*)::int FROM "dispatch"."sending_rules" WHERE client_id = ANY($1::int[]) AND routing_mode = 'sticky') AS sticky,
            (SELECT count(*)::int FROM "dispatch"."sending_rules" WHERE client_id = ANY($1::int[]) AND cardinality(window_minutes) > 0) AS windowed,
            (SELECT count(*)::int FROM "dispatch"."phones" WHERE id = ANY($2::int[]) AND monthly_recipients IS NOT NULL) AS capped`,
    [clients.map((client) => client.clientId), clients.flatMap((client) => client.gatewayIds)],
  );
  const expected = on ? { sticky: clients.length, windowed: clients.length, capped: clients.reduce((sum, client) => sum + client.gatewayIds.length, 0) } : { sticky: 0, windowed: 0, capped: 0 };
  if (JSON.stringify(rows[0]) !== JSON.stringify(expected)) throw new Error(`rules: asked for the rules ${on ? 'on' : 'off'}, the database holds ${JSON.stringify(rows[0])}`);
}

/** Statistics as autovacuum would keep them, before a drain (as `Backlog.add` leaves them). */
async function analyze(stack: BenchStack): Promise<void> {
  await stack.sql.query('VACUUM (ANALYZE) "dispatch"."tasks"');
  await stack.sql.query('ANALYZE "dispatch"."phones"');
}

async function maxTaskId(stack: BenchStack): Promise<number> {
  const { rows } = await stack.sql.query<{ id: number | null }>(`SELECT max(id) AS id FROM "dispatch"."tasks"`);
  return rows[0]?.id ?? 0;
}

/** What the round left among the tasks it created: tasks still pending, tasks claimed twice, recipients its client's tasks sent through more than one gateway. */
async function roundChecks(stack: BenchStack, firstNewId: number): Promise<Pick<RulesRound, 'leftPending' | 'claimedTwiceInDatabase' | 'recipientsOnSeveralGateways'>> {
  const { rows } = await stack.sql.query<{ left: number; twice: number; spread: number }>(
    `SELECT (SELECT count(*)::int FROM "dispatch"."tasks" WHERE id > $1 AND status = 'pending') AS left,
            (SELECT count(*)::int FROM "dispatch"."tasks" WHERE id > $1 AND attempts > 1) AS twice,
            (SELECT count(*)::int FROM (SELECT 1 FROM "dispatch"."tasks" WHERE id > $1 GROUP BY client_id, recipient HAVING count(DISTINCT phone_id) > 1) AS s) AS spread`,
    [firstNewId],
  );
  const row = rows[0]!;
  return { leftPending: row.left, claimedTwiceInDatabase: row.twice, recipientsOnSeveralGateways: row.spread };
}
