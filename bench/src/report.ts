import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSettings } from './bench-settings.js';
import { TARGETS } from './bench-settings.js';
import type { MeasuredService } from './bench-stack.js';
import type { ProfileSummary } from './cpu-profile.js';
import type { ConversationsResult } from './conversations-scenario.js';
import type { FailoverResult } from './failover-scenario.js';
import type { RulesResult } from './rules-scenario.js';
import type { SealedResult } from './sealed-scenario.js';
import type { SmppResult } from './smpp-scenario.js';
import type { BulkResult, DeliverResult, GrowthResult, NormalLoadResult, QueueResult, RestResult, TogetherResult } from './scenarios.js';

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  settings: BenchSettings;
  machine: { cpus: number; cpuModel: string; memoryMb: number; node: string; postgres: string; loadAverageAtStart: number[] };
  queue: QueueResult;
  /** Scenario 1d: create-tasks of many items a request. */
  bulk: BulkResult;
  normalLoad: NormalLoadResult;
  /** Scenario 4b: create-task at a fixed rate. */
  fixedRateLoad: NormalLoadResult;
  /** Scenario 4c: lone create-tasks at rest. */
  rest: RestResult;
  /** Scenarios 6 and 6b: submit_sm against create-task over HTTP. */
  smpp: SmppResult;
  deliver: DeliverResult;
  /** Scenario 2c: Deliver with batched claims and reports. */
  deliverBatched: DeliverResult;
  /** Scenario 2b: Deliver while failover moves tasks, against Deliver alone. */
  failover: FailoverResult;
  /** Scenarios 2d and 3b: Deliver and a lone claim with a client's sending rules on, against them off. */
  rules: RulesResult;
  growth: GrowthResult;
  /** Scenario 5: the first page of conversations. */
  conversations: ConversationsResult;
  /** Scenario 7: a worker opening sealed messages. */
  sealed: SealedResult;
  /** Scenario 1c: the four services in one process. */
  together: TogetherResult;
  targets: TargetCheck[];
  profiles?: ProfileSummary[];
}

export interface TargetCheck {
  name: string;
  /** null: not measured, and `unavailable` says why (the server lacks what the scenario needs). */
  measured: number | null;
  limit: number;
  /** Whether the measured value must stay at or above the limit, or at or below it. */
  kind: 'at least' | 'at most';
  met: boolean;
  unit: string;
  unavailable?: string;
}

type Measured = Pick<BenchResults, 'settings' | 'queue' | 'bulk' | 'deliver' | 'deliverBatched' | 'failover' | 'rules' | 'growth' | 'normalLoad' | 'rest' | 'smpp' | 'conversations' | 'sealed' | 'together'>;

const doubleClaimsOf = (deliver: DeliverResult) => (deliver.smsq.doubleClaims ?? 0) + (deliver.claimedTwiceInDatabase ?? 0);

export function checkTargets(r: Measured): TargetCheck[] {
  const check = (name: string, measured: number, kind: TargetCheck['kind'], limit: number, unit = ''): TargetCheck => ({
    name,
    measured,
    limit,
    kind,
    unit,
    met: kind === 'at least' ? measured >= limit : measured <= limit,
  });
  const batched = r.deliverBatched;
  const batchedName = `Deliver: ${r.settings.deliver.workers} workers claiming up to ${r.settings.deliver.batchSize} each / pgbench (2c)`;
  return [
    batched.unavailable === undefined
      ? check(batchedName, batched.ratio!, 'at least', TARGETS.deliverRatio)
      : { name: batchedName, measured: null, limit: TARGETS.deliverRatio, kind: 'at least', unit: '', met: false, unavailable: batched.unavailable },
    check(`Queue through create-tasks, ${r.bulk.itemsPerRequest} items a request: tasks/s / pgbench (1d)`, r.bulk.ratio, 'at least', TARGETS.bulkRatio),
    check('Queue, one task a request: smsq / the one-process implementation (1b)', r.queue.oneProcess.ratio, 'at least', TARGETS.queueOneProcessRatio),
    check(`p99 of create-task at half load (${r.normalLoad.ratePerS} req/s): smsq / the one-process implementation (4)`, r.normalLoad.p99Ratio!, 'at most', TARGETS.halfLoadP99Ratio, ' ×'),
    check(`p99 of a claim through the API, 1 worker, ${r.growth.small.pending} pending / the claim's SQL alone (3)`, r.growth.overSqlRatio, 'at most', TARGETS.claimOverSql, ' ×'),
    check('p50 of a lone create-task at rest: smsq / the one-process implementation (4c)', r.rest.ratio, 'at most', TARGETS.restP50Ratio, ' ×'),
    check('Errors: create-task (1, 1c, 4, 4c), create-tasks (1d)', r.queue.smsq.errors + r.together.smsq.errors + r.normalLoad.smsq.errors + r.rest.errors + r.bulk.smsq.errors, 'at most', 0),
    check(
      'Double claims (2, 2b, 2c, 2d)',
      doubleClaimsOf(r.deliver) +
        doubleClaimsOf(batched) +
        r.failover.rounds.reduce((sum, round) => sum + round.doubleClaims, 0) +
        r.rules.rounds.reduce((sum, round) => sum + round.doubleClaims + round.claimedTwiceInDatabase, 0),
      'at most',
      0,
    ),
    check('Tasks left undelivered (2, 2c, 2d)', (r.deliver.leftPending ?? 0) + (batched.leftPending ?? 0) + r.rules.rounds.reduce((sum, round) => sum + round.leftPending, 0), 'at most', 0),
    check('Deliver with failover moving tasks / Deliver alone (2b)', r.failover.ratio, 'at least', TARGETS.failoverRatio),
    check('Deliver with sticky, send windows and recipient caps on / with them off (2d)', r.rules.ratio, 'at least', TARGETS.rulesDeliverRatio),
    check(`p99 of a lone claim, ${r.rules.claims.pending} pending, with those rules on / off (3b)`, r.rules.claims.p99Ratio, 'at most', TARGETS.rulesClaimP99Ratio, ' ×'),
    check(`Claim latency p50 at ${r.growth.large.pending} / at ${r.growth.small.pending} pending (3)`, r.growth.ratio, 'at most', TARGETS.claimGrowth),
    check(`Tasks/s through submit_sm, ${r.smpp.window} outstanding on one bind / create-task from ${r.smpp.window} connections (6)`, r.smpp.ratio, 'at least', TARGETS.smppThroughputRatio),
    check('p50 of a lone submit_sm round trip / of a lone create-task (6b)', r.smpp.lone.p50Ratio, 'at most', TARGETS.smppLoneP50Ratio, ' ×'),
    check('Memory: the four core services in one process under scenario 1 (1c)', r.together.memoryUnderLoadMb, 'at most', TARGETS.residentTogetherMb, ' MB'),
    check(`p99 of the first page of conversations, a client with ${r.conversations.tasks} tasks (5)`, r.conversations.firstPage.p99Ms, 'at most', TARGETS.conversationsFirstPageMs, ' ms'),
    check(`A worker opening a sealed message after its first, ${r.sealed.messages} a round (7)`, r.sealed.medianPerMessageMs, 'at most', TARGETS.sealedOpenMs, ' ms'),
  ];
}

export function writeResults(root: string, results: BenchResults): string {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

const START = '<!-- bench:results:start (written by npm run bench; edit outside these markers) -->';
const END = '<!-- bench:results:end -->';

/** Replaces the generated block of docs/performance.md with the latest results; the hand-written rest stays. */
export function updatePerformanceDoc(root: string, results: BenchResults, resultFile: string): void {
  const path = join(root, 'docs', 'performance.md');
  const block = `${START}\n${renderResults(results, resultFile.slice(root.length + 1))}\n${END}`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : `# Performance\n\n${START}\n${END}\n`;
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next = start >= 0 && end > start ? current.slice(0, start) + block + current.slice(end + END.length) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}

/** A bar of `value` out of `scale`, `width` cells wide, with the target's cell marked when it lies beyond the bar. */
function bar(value: number, scale: number, width: number, target: number): string {
  const cellOf = (n: number) => Math.max(0, Math.min(width, Math.round((n / scale) * width)));
  const cells = [...'█'.repeat(cellOf(value)).padEnd(width, ' ')];
  const mark = cellOf(target) - 1;
  if (mark >= cellOf(value) && mark < width) cells[mark] = '▏';
  return cells.join('');
}

const measuredText = (t: TargetCheck) => (t.measured === null ? 'not available' : `${t.measured}${t.unit}`);
const metText = (t: TargetCheck) => (t.measured === null ? 'not measured' : t.met ? 'yes' : '**no**');

/** A scenario's row of the results table. */
function deliverRow(label: string, d: DeliverResult): string {
  if (d.unavailable !== undefined) return `| ${label} | not available: the server has no batched claims (${d.unavailable.replace(/\|/g, '\\|')}) | | |`;
  return `| ${label} | ${d.smsq.perSecond} tasks/s (claim p50 ${d.smsq.claimLatency?.p50Ms} ms, p99 ${d.smsq.claimLatency?.p99Ms} ms; ${d.smsq.errors} errors, ${d.smsq.doubleClaims} double claims, ${d.leftPending} left) | pgbench, a claim and a report per task: ${d.baseline!.tps} tx/s (${d.baseline!.clients} connections) | ${d.ratio} |`;
}

/** Scenario 6's row: submit_sm with a window against create-task from as many connections. */
function smppThroughputRow(smpp: SmppResult): string {
  return (
    `| 6. SMPP: ${smpp.rounds.length / 2} pairs of rounds of ${smpp.tasksPerRound} tasks of one client to ${smpp.recipients} numbers, submit_sm with ${smpp.window} outstanding on one transmitter bind ` +
    `| ${smpp.smppPerSecond} tasks/s (median; ${smpp.cpuMsPerTask.smpp} ms of CPU per task, the SMPP service included) ` +
    `| create-task over HTTP from ${smpp.window} connections: ${smpp.httpPerSecond} tasks/s (${smpp.cpuMsPerTask.http} ms of CPU per task) ` +
    `| ${smpp.ratio} (median of the pairs: ${smpp.pairRatios.join(', ')}) |`
  );
}

/** Scenario 6b's row: a lone submit_sm against a lone create-task. */
function smppLoneRow(smpp: SmppResult): string {
  const lone = smpp.lone;
  return (
    `| 6b. A lone submit_sm round trip: ${lone.rounds.length / 2} pairs of rounds of ${lone.requests}, one at a time, ${lone.pauseMs} ms apart | p50 ${lone.smpp.p50Ms} ms, p99 ${lone.smpp.p99Ms} ms (medians of the rounds) ` +
    `| a lone create-task over HTTP: p50 ${lone.http.p50Ms} ms, p99 ${lone.http.p99Ms} ms | p50: ${lone.p50Ratio} × (pairs ${lone.p50PairRatios.join(', ')}); p99: ${lone.p99Ratio} × |`
  );
}

/** Scenario 7's row: a worker opening sealed messages, against its first (the key's derivation). */
function sealedRow(sealed: SealedResult): string {
  return (
    `| 7. A worker opening sealed messages and counting their parts: ${sealed.perMessageMs.length} rounds, a keyring new each round, ${sealed.messages} messages after its first ` +
    `| ${sealed.medianPerMessageMs} ms a message (median of the rounds: ${sealed.perMessageMs.join(', ')}) | its first message, the key derived: ${sealed.medianFirstOpenMs} ms | ${sealed.ratio} |`
  );
}

/** Scenario 2d's row: Deliver with the rules on against the same rounds with them off. */
function rulesDeliverRow(rules: RulesResult): string {
  const c = rules.creates;
  return (
    `| 2d. Deliver with sending rules on: ${rules.rounds.length / 2} pairs of rounds of ${rules.backlog} tasks, each created through create-tasks by ${rules.clients} clients of ${rules.gatewaysPerClient} VIP gateways to ${rules.recipients} numbers, then drained by scenario 2's workers; on: sticky, windows over the whole week, a cap of ${rules.cap} recipients a gateway ` +
    `| ${rules.onPerSecond} tasks/s (median; dispatch ${rules.dispatchCpuMs.on} ms of CPU per task; built at ${c.onPerSecond} tasks/s, ${c.onCpuMs} ms of CPU per task) ` +
    `| the same rounds with the rules off: ${rules.offPerSecond} tasks/s (dispatch ${rules.dispatchCpuMs.off} ms of CPU per task; built at ${c.offPerSecond} tasks/s, ${c.offCpuMs} ms of CPU per task) ` +
    `| ${rules.ratio} (median of the pairs: ${rules.pairRatios.join(', ')}; creates ${c.ratio}) |`
  );
}

/** Scenario 3b's row: a lone claim with the rules on against them off. */
function rulesClaimRow(rules: RulesResult): string {
  const c = rules.claims;
  return (
    `| 3b. Claim latency with sending rules on, 1 worker, ${c.pending} pending: ${c.rounds.length / 2} pairs of rounds of ${c.claims} claims | p50 ${c.on.p50Ms} ms, p99 ${c.on.p99Ms} ms (medians of the rounds) ` +
    `| the rules off: p50 ${c.off.p50Ms} ms, p99 ${c.off.p99Ms} ms | p99: ${c.p99Ratio} × (pairs ${c.p99PairRatios.join(', ')}); p50: ${c.p50Ratio} × |`
  );
}

export function renderResults(r: BenchResults, resultFile: string): string {
  const services = Object.keys(r.queue.memoryUnderLoadMb) as MeasuredService[];
  const oneProcess = r.queue.oneProcess.implementation;
  const half = r.normalLoad;
  const batched = r.deliverBatched;
  const lines = [
    `Last run: ${r.startedAt} (${r.settings.mode}${r.settings.mode === 'quick' ? ', shorter than the issue asks: not a result to judge by' : ''}), ` +
      `${r.machine.cpus} × ${r.machine.cpuModel}, ${Math.round(r.machine.memoryMb / 1024)} GB, Node ${r.machine.node}, ${r.machine.postgres}; ` +
      `load average at start ${r.machine.loadAverageAtStart.map((n) => n.toFixed(2)).join(' / ')}. Raw figures: \`${resultFile}\`.`,
    '',
    '### Targets',
    '',
    '| target | measured | limit | met |',
    '|---|---:|---:|:---:|',
    ...r.targets.map((t) => `| ${t.name} | ${measuredText(t)} | ${t.kind === 'at least' ? '≥' : '≤'} ${t.limit}${t.unit} | ${metText(t)} |`),
    '',
    '### Scenarios',
    '',
    '| scenario | smsq | baseline (same run) | smsq / baseline |',
    '|---|---:|---:|---:|',
    `| 1. Queue: create-task, ${r.settings.queue.connections} connections, ${r.settings.queue.durationS} s | ${r.queue.smsq.perSecond} req/s (p50 ${r.queue.smsq.latency.p50Ms} ms, p99 ${r.queue.smsq.latency.p99Ms} ms, ${r.queue.smsq.errors} errors of ${r.queue.smsq.requests}; ${r.queue.meanBatchSize} creates per batch to dispatch) | pgbench: ${r.queue.baseline.tps} tx/s (${r.queue.baseline.clients} connections, ${r.queue.baseline.failed} failed) | ${r.queue.ratio} |`,
    `| 1b. Queue, the one-process implementation: the same load right after | ${r.queue.smsq.perSecond} req/s (1.) | ${oneProcess.perSecond} req/s (p50 ${oneProcess.latency.p50Ms} ms, p99 ${oneProcess.latency.p99Ms} ms, ${oneProcess.errors} errors of ${oneProcess.requests}; ${r.queue.oneProcess.cpuMsPerRequest} ms of CPU per request, ${r.queue.oneProcess.memoryUnderLoadMb} MB peak) | ${r.queue.oneProcess.ratio} |`,
    `| 1c. Queue, smsq's four services in one process (as npm start runs them): the same load, on a stack of its own | ${r.together.smsq.perSecond} req/s (p50 ${r.together.smsq.latency.p50Ms} ms, p99 ${r.together.smsq.latency.p99Ms} ms, ${r.together.smsq.errors} errors of ${r.together.smsq.requests}; ${r.together.cpuMsPerRequest} ms of CPU per request, ${r.together.memoryUnderLoadMb} MB peak) | pgbench (1.): ${r.queue.baseline.tps} tx/s | ${Math.round((r.together.smsq.perSecond / r.queue.baseline.tps) * 100) / 100} |`,
    `| 1d. Queue through create-tasks: ${r.bulk.itemsPerRequest} items a request, ${r.bulk.connections} connections, ${r.settings.bulk.durationS} s | ${r.bulk.tasksPerSecond} tasks/s (${r.bulk.smsq.perSecond} req/s, p50 ${r.bulk.smsq.latency.p50Ms} ms, p99 ${r.bulk.smsq.latency.p99Ms} ms, ${r.bulk.smsq.errors} errors of ${r.bulk.smsq.requests}) | pgbench, one transaction per task: ${r.bulk.baseline.tps} tx/s (${r.bulk.baseline.clients} connections) | ${r.bulk.ratio} |`,
    deliverRow(`2. Deliver: ${r.settings.deliver.workers} workers, one task a claim, ${r.deliver.backlog} tasks`, r.deliver),
    deliverRow(`2c. Deliver: ${r.settings.deliver.workers} workers claiming up to ${r.settings.deliver.batchSize} each, reports in batches, ${batched.backlog} tasks`, batched),
    `| 2b. Deliver while failover works: ${r.failover.rounds.length / 2} pairs of rounds of ${r.failover.backlog} tasks, 32 workers; beside them ${r.failover.stranded.moving} gateways disabled as the round starts and ${r.failover.stranded.atLimit} at their daily limit with ${r.failover.stranded.movablePerGateway} movable tasks each, ${r.failover.stranded.pinned} disabled with ${r.failover.stranded.pinnedPerGateway} pinned tasks each | ${r.failover.failoverPerSecond} tasks/s (median; ${r.failover.movedPerSecond} tasks moved/s; dispatch ${r.failover.dispatchCpuMs.failover} ms of CPU per task) | the same rounds without stranded gateways: ${r.failover.baselinePerSecond} tasks/s (dispatch ${r.failover.dispatchCpuMs.baseline} ms of CPU per task) | ${r.failover.ratio} (median of the pairs: ${r.failover.pairRatios.join(', ')}) |`,
    rulesDeliverRow(r.rules),
    rulesClaimRow(r.rules),
    `| 3. Claim latency, 1 worker, ${r.growth.small.pending} pending | p50 ${r.growth.small.api.p50Ms} ms, p99 ${r.growth.small.api.p99Ms} ms (${r.growth.small.api.count} claims) | the claim's SQL alone: p50 ${r.growth.small.sql.p50Ms} ms, p99 ${r.growth.small.sql.p99Ms} ms | p99: ${r.growth.overSqlRatio} × |`,
    `| 3. Claim latency, the one-process implementation (the claim statement behind \`node:http\`), ${r.growth.small.pending} pending | p99 ${r.growth.small.api.p99Ms} ms (smsq, above) | p50 ${r.growth.oneProcess.p50Ms} ms, p99 ${r.growth.oneProcess.p99Ms} ms (${r.growth.oneProcess.count} claims): ${r.growth.oneProcessOverSqlRatio} × the claim's SQL alone | p99: ${r.growth.overOneProcessRatio} × |`,
    `| 3. Claim latency, 1 worker, ${r.growth.large.pending} pending | p50 ${r.growth.large.api.p50Ms} ms, p99 ${r.growth.large.api.p99Ms} ms (${r.growth.large.api.count} claims) | the claim's SQL alone: p50 ${r.growth.large.sql.p50Ms} ms, p99 ${r.growth.large.sql.p99Ms} ms | p50: ${r.growth.ratio} × the small backlog's |`,
    `| 5. First page of conversations, a client with ${r.conversations.tasks} tasks to ${r.conversations.numbers} numbers and ${r.conversations.replies} replies | p50 ${r.conversations.firstPage.p50Ms} ms, p99 ${r.conversations.firstPage.p99Ms} ms (${r.conversations.requests} pages) | its two statements alone: p50 ${r.conversations.sql.p50Ms} ms, p99 ${r.conversations.sql.p99Ms} ms | p99: ${r.conversations.overSqlRatio} × |`,
    `| 4. create-task at half load, ${half.ratePerS} req/s (half of 1b), open loop, ${r.settings.normalLoad.durationS} s | p50 ${half.smsq.latency.p50Ms} ms, p99 ${half.smsq.latency.p99Ms} ms, ${half.smsq.errors} errors | the one-process implementation at the same rate: p50 ${half.oneProcess?.latency.p50Ms} ms, p99 ${half.oneProcess?.latency.p99Ms} ms, ${half.oneProcess?.errors} errors | p99: ${half.p99Ratio} × |`,
    `| 4b. create-task at ${r.fixedRateLoad.ratePerS} req/s | p50 ${r.fixedRateLoad.smsq.latency.p50Ms} ms, p99 ${r.fixedRateLoad.smsq.latency.p99Ms} ms, ${r.fixedRateLoad.smsq.errors} errors | | |`,
    `| 4c. A lone create-task at rest: ${r.rest.requests}, one at a time, ${r.rest.pauseMs} ms apart | p50 ${r.rest.smsq.p50Ms} ms, p99 ${r.rest.smsq.p99Ms} ms | the one-process implementation: p50 ${r.rest.oneProcess.p50Ms} ms, p99 ${r.rest.oneProcess.p99Ms} ms | p50: ${r.rest.ratio} × |`,
    smppThroughputRow(r.smpp),
    smppLoneRow(r.smpp),
    sealedRow(r.sealed),
    '',
    '### CPU time of the services per request (ms)',
    '',
    'Throughput on a machine shared with other work moves with that work; the CPU time the services spend per request does not, and it bounds what 2 cores can do: 2,000 ms of CPU per second divided by it.',
    '',
    `| | ${services.join(' | ')} | all |`,
    `|---|${services.map(() => '---:').join('|')}|---:|`,
    `| per create-task (scenario 1) | ${services.map((s) => r.queue.cpuMsPerRequest[s]).join(' | ')} | ${r.queue.cpuMsPerRequest.all} |`,
    `| per task through create-tasks (scenario 1d) | ${services.map((s) => r.bulk.cpuMsPerTask[s]).join(' | ')} | ${r.bulk.cpuMsPerTask.all} |`,
    `| per delivered task, one a claim (scenario 2) | ${services.map((s) => r.deliver.cpuMsPerTask?.[s]).join(' | ')} | ${r.deliver.cpuMsPerTask?.all} |`,
    batched.cpuMsPerTask
      ? `| per delivered task, in batches (scenario 2c) | ${services.map((s) => batched.cpuMsPerTask?.[s]).join(' | ')} | ${batched.cpuMsPerTask.all} |`
      : `| per delivered task, in batches (scenario 2c) | ${services.map(() => 'n/a').join(' | ')} | n/a |`,
    '',
    `The one-process implementation (1b), in its one process: ${r.queue.oneProcess.cpuMsPerRequest} ms per create-task.`,
    '',
    '### Resident memory (MB)',
    '',
    'Measured, no longer a target apart; the four in one process stay under their 500 MB.',
    '',
    '| service | at rest | under scenario 1 (peak) |',
    '|---|---:|---:|',
    ...services.map((s) => `| ${s} | ${r.queue.memoryAtRestMb[s]} | ${r.queue.memoryUnderLoadMb[s]} |`),
    `| the four together | ${Object.values(r.queue.memoryAtRestMb).reduce((sum, mb) => sum + mb, 0)} | ${r.queue.memoryUnderLoadTotalMb} |`,
    `| the four in one process, as npm start runs them (1c) | ${r.together.memoryAtRestMb} | ${r.together.memoryUnderLoadMb} |`,
    `| the one-process implementation (1b) | ${r.queue.oneProcess.memoryAtRestMb} | ${r.queue.oneProcess.memoryUnderLoadMb} |`,
    '',
    '### Chart: smsq as a share of its baselines (▏ marks the target)',
    '',
    '```text',
    `Queue, create-tasks / pgbench   ${bar(r.bulk.ratio, 1, 40, TARGETS.bulkRatio)} ${r.bulk.ratio.toFixed(2)} (target ${TARGETS.bulkRatio.toFixed(2)})`,
    `Queue / one-process             ${bar(r.queue.oneProcess.ratio, 1, 40, TARGETS.queueOneProcessRatio)} ${r.queue.oneProcess.ratio.toFixed(2)} (target ${TARGETS.queueOneProcessRatio.toFixed(2)})`,
    batched.ratio === undefined
      ? `Deliver in batches / pgbench     not available (the server has no batched claims)`
      : `Deliver in batches / pgbench    ${bar(batched.ratio, 1, 40, TARGETS.deliverRatio)} ${batched.ratio.toFixed(2)} (target ${TARGETS.deliverRatio.toFixed(2)})`,
    `Deliver, one a claim / pgbench  ${bar(r.deliver.ratio ?? 0, 1, 40, 0)} ${(r.deliver.ratio ?? 0).toFixed(2)} (no target)`,
    `Deliver, failover              ${bar(r.failover.ratio, 1, 40, TARGETS.failoverRatio)} ${r.failover.ratio.toFixed(2)} (target ${TARGETS.failoverRatio.toFixed(2)}; against Deliver alone)`,
    `Deliver, sending rules on      ${bar(r.rules.ratio, 1, 40, TARGETS.rulesDeliverRatio)} ${r.rules.ratio.toFixed(2)} (target ${TARGETS.rulesDeliverRatio.toFixed(2)}; against them off)`,
    `SMPP submit_sm / create-task   ${bar(r.smpp.ratio, 1, 40, TARGETS.smppThroughputRatio)} ${r.smpp.ratio.toFixed(2)} (target ${TARGETS.smppThroughputRatio.toFixed(2)}; tasks/s, ${r.smpp.window} outstanding each way)`,
    `                                0${' '.repeat(38)}1.0`,
    '```',
  ];
  return lines.join('\n');
}

export function printSummary(r: BenchResults): void {
  const batched = r.deliverBatched;
  const out = [
    '',
    `Queue:    ${r.queue.smsq.perSecond} req/s vs ${r.queue.oneProcess.implementation.perSecond} req/s of the one-process implementation -> ratio ${r.queue.oneProcess.ratio} (target >= ${TARGETS.queueOneProcessRatio}); vs pgbench ${r.queue.baseline.tps} tx/s -> ${r.queue.ratio} (no target)`,
    `Bulk:     ${r.bulk.tasksPerSecond} tasks/s through create-tasks vs ${r.bulk.baseline.tps} tx/s of pgbench -> ratio ${r.bulk.ratio} (target >= ${TARGETS.bulkRatio})`,
    `Deliver:  in batches ${batched.unavailable === undefined ? `${batched.smsq.perSecond} tasks/s vs ${batched.baseline!.tps} tx/s -> ratio ${batched.ratio}` : 'not available'} (target >= ${TARGETS.deliverRatio}); one a claim ${r.deliver.smsq.perSecond} tasks/s -> ${r.deliver.ratio}`,
    `Rules:    Deliver ${r.rules.onPerSecond} tasks/s with sticky, windows and caps on vs ${r.rules.offPerSecond} off -> ratio ${r.rules.ratio} (target >= ${TARGETS.rulesDeliverRatio}); lone claim p99 on / off ${r.rules.claims.p99Ratio} (target <= ${TARGETS.rulesClaimP99Ratio}), p50 ${r.rules.claims.p50Ratio}; creates on / off ${r.rules.creates.ratio}`,
    `SMPP:     ${r.smpp.smppPerSecond} tasks/s through submit_sm (${r.smpp.window} outstanding) vs ${r.smpp.httpPerSecond} through create-task -> ratio ${r.smpp.ratio} (target >= ${TARGETS.smppThroughputRatio}); lone p50 ${r.smpp.lone.smpp.p50Ms} ms vs ${r.smpp.lone.http.p50Ms} ms -> ${r.smpp.lone.p50Ratio} (target <= ${TARGETS.smppLoneP50Ratio}), p99 -> ${r.smpp.lone.p99Ratio}`,
    `Sealed:   a worker opens a sealed message in ${r.sealed.medianPerMessageMs} ms after its first (${r.sealed.medianFirstOpenMs} ms, the key derived) (target <= ${TARGETS.sealedOpenMs} ms)`,
    `Failover: ${r.failover.failoverPerSecond} tasks/s while moving ${r.failover.movedPerSecond} tasks/s vs ${r.failover.baselinePerSecond} tasks/s alone -> ratio ${r.failover.ratio} (target >= ${TARGETS.failoverRatio})`,
    `Claims:   p99 ${r.growth.small.api.p99Ms} ms through the API vs ${r.growth.small.sql.p99Ms} ms in SQL -> ${r.growth.overSqlRatio} (target <= ${TARGETS.claimOverSql}; the one-process implementation ${r.growth.oneProcess.p99Ms} ms -> ${r.growth.oneProcessOverSqlRatio}); p50 ${r.growth.large.pending} / ${r.growth.small.pending} pending -> ${r.growth.ratio} (target <= ${TARGETS.claimGrowth})`,
    `Threads:  first page of conversations, ${r.conversations.tasks} tasks: p99 ${r.conversations.firstPage.p99Ms} ms (target <= ${TARGETS.conversationsFirstPageMs}), SQL alone ${r.conversations.sql.p99Ms} ms -> ${r.conversations.overSqlRatio}`,
    `Latency:  p99 at half load (${r.normalLoad.ratePerS} req/s) ${r.normalLoad.smsq.latency.p99Ms} ms vs ${r.normalLoad.oneProcess?.latency.p99Ms} ms -> ${r.normalLoad.p99Ratio} (target <= ${TARGETS.halfLoadP99Ratio}); at rest p50 ${r.rest.smsq.p50Ms} ms vs ${r.rest.oneProcess.p50Ms} ms -> ${r.rest.ratio} (target <= ${TARGETS.restP50Ratio})`,
    `CPU:      ${r.queue.cpuMsPerRequest.all} ms per create-task, ${r.bulk.cpuMsPerTask.all} ms per task through create-tasks, ${r.deliver.cpuMsPerTask?.all} ms per delivered task (all services)`,
    `Memory:   peak under load ${JSON.stringify(r.queue.memoryUnderLoadMb)} MB, together ${r.queue.memoryUnderLoadTotalMb} MB, in one process ${r.together.memoryUnderLoadMb} MB (target <= ${TARGETS.residentTogetherMb})`,
    '',
    ...r.targets.map((t) => `${t.measured === null ? 'N/A    ' : t.met ? 'met    ' : 'NOT MET'}  ${t.name}: ${measuredText(t)} (${t.kind} ${t.limit}${t.unit})${t.unavailable ? ` — ${t.unavailable}` : ''}`),
    '',
  ];
  process.stdout.write(out.join('\n'));
}
