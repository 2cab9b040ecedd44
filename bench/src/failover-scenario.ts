import { Backlog } from './backlog.js';
import type { BenchStack } from './bench-stack.js';
import type { BenchSettings } from './bench-settings.js';
import { runLoad } from './load/run-load.js';
import { cpuPer, type CpuPerRequest, type Fixture } from './scenarios.js';

/** One Deliver round of scenario 2b. */
export interface FailoverRound {
  withFailover: boolean;
  tasksPerSecond: number;
  delivered: number;
  doubleClaims: number;
  cpuMsPerTask: CpuPerRequest;
  /** Waiting tasks failover moved off the stranded gateways while the round's workers ran. */
  moved: number;
}

export interface FailoverResult {
  backlog: number;
  stranded: { moving: number; atLimit: number; movablePerGateway: number; pinned: number; pinnedPerGateway: number };
  rounds: FailoverRound[];
  /** Median tasks/s of the plain rounds and of the rounds with failover working. */
  baselinePerSecond: number;
  failoverPerSecond: number;
  /** Each pair's (with failover / plain), in the order the pairs ran. */
  pairRatios: number[];
  /** Their median: the figure the target is judged on. */
  ratio: number;
  /** Median dispatch CPU per delivered task, plain and with failover. */
  dispatchCpuMs: { baseline: number; failover: number };
  /** Median tasks moved per second of a round with failover working. */
  movedPerSecond: number;
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface StrandedGateways {
  /** Enabled while their tasks are added, disabled through the admin command as the round starts. */
  moving: number[];
  /** A daily limit of 1, reached by a claim of their own bound worker token. */
  atLimit: Array<{ id: number; workerToken: string }>;
  /** Disabled, with only pinned tasks: the sweep must look at them and move nothing. */
  pinned: number[];
}

/**
 * Scenario 2b (issue 18): Deliver's 32 workers drain a backlog, in pairs of rounds, one plain and
 * one while failover moves thousands of waiting tasks off gateways that cannot send them, at its
 * normal period (every 5 s) and as the admin's `gateway disable` does at once. The stranded tasks
 * fall due after the backlog, so both rounds of a pair claim the same tasks in the same order and
 * differ only in what failover does beside them. The pairs alternate which round goes first, so a
 * machine that speeds up or slows down during the scenario does not favour one side.
 */
export async function failoverScenario(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<FailoverResult> {
  const config = settings.failover;
  const { workers } = settings.deliver;
  const gateways = await strandedGateways(stack, settings, fixture);
  const stranded = [...gateways.moving, ...gateways.atLimit.map((gateway) => gateway.id)];
  const deliver = new Backlog(stack.sql, fixture.gatewayIds);

  const runRound = async (withFailover: boolean): Promise<FailoverRound> => {
    await deliver.retireAll();
    const firstNewId = await maxTaskId(stack);
    await deliver.add(config.backlog);
    if (withFailover) {
      for (const id of gateways.moving) await stack.admin('gateway', 'enable', '--phone', String(id));
      await new Backlog(stack.sql, stranded).add(config.movablePerGateway * stranded.length, undefined, { dueMinutesAgo: 30 });
      await new Backlog(stack.sql, gateways.pinned).add(config.pinnedPerGateway * gateways.pinned.length, undefined, { dueMinutesAgo: 30, pinned: true });
      for (const gateway of gateways.atLimit) await reachDailyLimit(stack, gateway);
    }
    let movedAtEnd = 0;
    const { result: load, cpu } = await cpuPer(
      stack,
      async () => {
        const running = runLoad({ kind: 'deliver', baseUrl: stack.baseUrl, workers, workerTokens: fixture.workerTokens, expectedTasks: config.backlog, timeoutMs: config.timeoutS * 1000 });
        // A user disabling phones in the middle of a stream: each disable moves a first share at once, the sweep the rest.
        if (withFailover) for (const id of gateways.moving) await stack.admin('gateway', 'disable', '--phone', String(id));
        const result = await running;
        movedAtEnd = await movedOff(stack, stranded, firstNewId);
        return result;
      },
      (result) => result.delivered ?? 0,
    );
    const round: FailoverRound = { withFailover, tasksPerSecond: load.perSecond, delivered: load.delivered ?? 0, doubleClaims: load.doubleClaims ?? 0, cpuMsPerTask: cpu, moved: movedAtEnd };
    log(`failover: ${withFailover ? 'with failover' : 'plain        '} ${round.tasksPerSecond} tasks/s, ${round.moved} tasks moved, dispatch ${cpu.dispatch} ms CPU per task`);
    return round;
  };

  log(`failover: warm-up, then ${config.rounds} pairs of rounds of ${config.backlog} tasks; ${stranded.length} gateways with ${config.movablePerGateway} movable tasks each, ${gateways.pinned.length} with ${config.pinnedPerGateway} pinned`);
  await deliver.retireAll();
  await deliver.add(Math.min(2_000, config.backlog));
  await runLoad({ kind: 'deliver', baseUrl: stack.baseUrl, workers, workerTokens: fixture.workerTokens, expectedTasks: Math.min(2_000, config.backlog), timeoutMs: config.timeoutS * 1000 });

  const rounds: FailoverRound[] = [];
  const pairRatios: number[] = [];
  for (let pair = 0; pair < config.rounds; pair++) {
    const order = pair % 2 === 0 ? [false, true] : [true, false];
    const done: FailoverRound[] = [];
    for (const withFailover of order) done.push(await runRound(withFailover));
    const plain = done.find((round) => !round.withFailover)!;
    const busy = done.find((round) => round.withFailover)!;
    pairRatios.push(busy.tasksPerSecond / plain.tasksPerSecond);
    rounds.push(...done);
  }
  await deliver.retireAll();

  const plain = rounds.filter((round) => !round.withFailover);
  const busy = rounds.filter((round) => round.withFailover);
  const result: FailoverResult = {
    backlog: config.backlog,
    stranded: { moving: config.moving, atLimit: config.atLimit, movablePerGateway: config.movablePerGateway, pinned: config.pinned, pinnedPerGateway: config.pinnedPerGateway },
    rounds,
    baselinePerSecond: round2(median(plain.map((round) => round.tasksPerSecond))),
    failoverPerSecond: round2(median(busy.map((round) => round.tasksPerSecond))),
    pairRatios: pairRatios.map(round2),
    ratio: round2(median(pairRatios)),
    dispatchCpuMs: { baseline: round2(median(plain.map((round) => round.cpuMsPerTask.dispatch))), failover: round2(median(busy.map((round) => round.cpuMsPerTask.dispatch))) },
    movedPerSecond: round2(median(busy.map((round) => (round.moved * round.tasksPerSecond) / Math.max(1, round.delivered)))),
  };
  log(`failover: plain ${result.baselinePerSecond} tasks/s, with failover ${result.failoverPerSecond} tasks/s (${result.movedPerSecond} moved/s); ratio ${result.ratio} (median of ${pairRatios.map(round2).join(', ')})`);
  return result;
}

/** The scenario's gateways, made through the admin commands as an admin would: VIP gateways of the bench clients, so a moved task stays in its client's pool. */
async function strandedGateways(stack: BenchStack, settings: BenchSettings, fixture: Fixture): Promise<StrandedGateways> {
  const config = settings.failover;
  let made = 0;
  const create = async (name: string): Promise<number> => {
    const clientId = fixture.clientIds[made++ % fixture.clientIds.length]!;
    const { phone_id: id } = await stack.admin<{ phone_id: number }>('gateway', 'create', '--name', name, '--url', 'http://127.0.0.1:9/send', '--client', String(clientId));
    return id;
  };
  const gateways: StrandedGateways = { moving: [], atLimit: [], pinned: [] };
  for (let n = 0; n < config.moving; n++) {
    const id = await create(`failover bench: disabled ${n}`);
    await stack.admin('gateway', 'disable', '--phone', String(id));
    gateways.moving.push(id);
  }
  for (let n = 0; n < config.atLimit; n++) {
    const id = await create(`failover bench: at its limit ${n}`);
    await stack.admin('gateway', 'set', '--phone', String(id), '--daily', '1');
    const { worker_token: workerToken } = await stack.admin<{ worker_token: string }>('worker-token', 'create', '--phone', String(id));
    gateways.atLimit.push({ id, workerToken });
  }
  for (let n = 0; n < config.pinned; n++) {
    const id = await create(`failover bench: disabled, pinned tasks only ${n}`);
    await stack.admin('gateway', 'disable', '--phone', String(id));
    gateways.pinned.push(id);
  }
  return gateways;
}

/** Its own worker claims and sends one of its tasks, unless today's limit is reached already (a later round of the same day). */
async function reachDailyLimit(stack: BenchStack, gateway: { id: number; workerToken: string }): Promise<void> {
  const { rows } = await stack.sql.query<{ full: boolean }>(
    `SELECT day_of IS NOT DISTINCT FROM (now() AT TIME ZONE COALESCE(time_zone, $2))::date AND day_sends >= daily_limit AS full
       FROM "dispatch"."phones" WHERE id = $1`,
    [gateway.id, stack.env['SMSQ_TIMEZONE'] ?? 'Europe/Belgrade'],
  );
  if (rows[0]?.full) return;
  const headers = { 'x-worker-token': gateway.workerToken };
  const claim = await fetch(`${stack.baseUrl}/smsapi/pending-tasks`, { headers });
  const task = (await claim.json()) as { id?: number };
  if (claim.status !== 200 || task.id === undefined) throw new Error(`gateway ${gateway.id}'s worker claimed nothing (${claim.status})`);
  const report = await fetch(`${stack.baseUrl}/smsapi/task-status`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ id: task.id, status: 'sent' }),
  });
  if (report.status !== 200) throw new Error(`gateway ${gateway.id}'s report answered ${report.status}`);
}

async function maxTaskId(stack: BenchStack): Promise<number> {
  const { rows } = await stack.sql.query<{ id: number | null }>(`SELECT max(id) AS id FROM "dispatch"."tasks"`);
  return rows[0]?.id ?? 0;
}

/** Tasks added after `firstNewId` that failover moved off the stranded gateways. */
async function movedOff(stack: BenchStack, gatewayIds: number[], firstNewId: number): Promise<number> {
  const { rows } = await stack.sql.query<{ count: string }>(
    `SELECT count(*) FROM "dispatch"."tasks" WHERE first_phone_id = ANY($1::int[]) AND id > $2`,
    [gatewayIds, firstNewId],
  );
  return Number(rows[0]!.count);
}
