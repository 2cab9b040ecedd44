import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchSettings } from './bench-settings.js';
import { TARGETS } from './bench-settings.js';
import type { MeasuredService } from './bench-stack.js';
import type { ProfileSummary } from './cpu-profile.js';
import type { FailoverResult } from './failover-scenario.js';
import type { DeliverResult, GrowthResult, NormalLoadResult, QueueResult, TogetherResult } from './scenarios.js';

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  settings: BenchSettings;
  machine: { cpus: number; cpuModel: string; memoryMb: number; node: string; postgres: string; loadAverageAtStart: number[] };
  queue: QueueResult;
  normalLoad: NormalLoadResult;
  /** Scenario 4b: create-task at the fixed rate. */
  fixedRateLoad: NormalLoadResult;
  deliver: DeliverResult;
  /** Scenario 2b: Deliver while failover moves tasks, against Deliver alone. */
  failover: FailoverResult;
  growth: GrowthResult;
  /** Scenario 1c: the four services in one process. */
  together: TogetherResult;
  targets: TargetCheck[];
  profiles?: ProfileSummary[];
}

export interface TargetCheck {
  name: string;
  measured: number;
  limit: number;
  /** Whether the measured value must stay at or above the limit, or at or below it. */
  kind: 'at least' | 'at most';
  met: boolean;
  unit: string;
}

export function checkTargets(queue: QueueResult, deliver: DeliverResult, failover: FailoverResult, growth: GrowthResult, normal: NormalLoadResult, fixedRate: NormalLoadResult, together: TogetherResult): TargetCheck[] {
  const check = (name: string, measured: number, kind: TargetCheck['kind'], limit: number, unit = ''): TargetCheck => ({
    name,
    measured,
    limit,
    kind,
    unit,
    met: kind === 'at least' ? measured >= limit : measured <= limit,
  });
  const heaviest = Math.max(...Object.values(queue.memoryUnderLoadMb));
  return [
    check('Queue: smsq / pgbench', queue.ratio, 'at least', TARGETS.queueRatio),
    check('Queue: smsq / one-process implementation', queue.oneProcess.ratio, 'at least', TARGETS.queueOneProcessRatio),
    check('Queue: errors', queue.smsq.errors, 'at most', 0),
    check('Deliver: smsq / baseline', deliver.ratio, 'at least', TARGETS.deliverRatio),
    check('Deliver: double claims', (deliver.smsq.doubleClaims ?? 0) + deliver.claimedTwiceInDatabase, 'at most', 0),
    check('Deliver: tasks left undelivered', deliver.leftPending, 'at most', 0),
    check('Deliver with failover moving tasks / Deliver alone (2b)', failover.ratio, 'at least', TARGETS.failoverRatio),
    check('Deliver with failover (2b): double claims', failover.rounds.reduce((sum, round) => sum + round.doubleClaims, 0), 'at most', 0),
    check(`Claim latency p50 at ${growth.large.pending} / at ${growth.small.pending} pending`, growth.ratio, 'at most', TARGETS.claimGrowth),
    check('p99 of create-task at half the maximum rate', normal.smsq.latency.p99Ms, 'at most', TARGETS.halfLoadP99Ms, ' ms'),
    check(`p99 of create-task at ${fixedRate.ratePerS} requests per second`, fixedRate.smsq.latency.p99Ms, 'at most', TARGETS.fixedRateP99Ms, ' ms'),
    check('Memory: the four core services together under scenario 1, apart', queue.memoryUnderLoadTotalMb, 'at most', TARGETS.residentTotalMb, ' MB'),
    check('Memory: the four core services under scenario 1, in one process (1c)', together.memoryUnderLoadMb, 'at most', TARGETS.residentTotalMb, ' MB'),
    check('Queue in one process (1c): errors', together.smsq.errors, 'at most', 0),
    check('Memory: largest service under scenario 1', heaviest, 'at most', TARGETS.residentMb, ' MB'),
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

export function renderResults(r: BenchResults, resultFile: string): string {
  const services = Object.keys(r.queue.memoryUnderLoadMb) as MeasuredService[];
  const oneProcess = r.queue.oneProcess.implementation;
  const lines = [
    `Last run: ${r.startedAt} (${r.settings.mode}${r.settings.mode === 'quick' ? ', shorter than the issue asks: not a result to judge by' : ''}), ` +
      `${r.machine.cpus} × ${r.machine.cpuModel}, ${Math.round(r.machine.memoryMb / 1024)} GB, Node ${r.machine.node}, ${r.machine.postgres}; ` +
      `load average at start ${r.machine.loadAverageAtStart.map((n) => n.toFixed(2)).join(' / ')}. Raw figures: \`${resultFile}\`.`,
    '',
    '### Targets',
    '',
    '| target | measured | limit | met |',
    '|---|---:|---:|:---:|',
    ...r.targets.map((t) => `| ${t.name} | ${t.measured}${t.unit} | ${t.kind === 'at least' ? '≥' : '≤'} ${t.limit}${t.unit} | ${t.met ? 'yes' : '**no**'} |`),
    '',
    '### Scenarios',
    '',
    '| scenario | smsq | baseline (same run) | smsq / baseline |',
    '|---|---:|---:|---:|',
    `| 1. Queue: create-task, ${r.settings.queue.connections} connections, ${r.settings.queue.durationS} s | ${r.queue.smsq.perSecond} req/s (p50 ${r.queue.smsq.latency.p50Ms} ms, p99 ${r.queue.smsq.latency.p99Ms} ms, ${r.queue.smsq.errors} errors of ${r.queue.smsq.requests}; ${r.queue.meanBatchSize} creates per batch to dispatch) | pgbench: ${r.queue.baseline.tps} tx/s (${r.queue.baseline.clients} connections, ${r.queue.baseline.failed} failed) | ${r.queue.ratio} |`,
    `| 1b. Queue, the one-process implementation: the same load right after | ${r.queue.smsq.perSecond} req/s (1.) | ${oneProcess.perSecond} req/s (p50 ${oneProcess.latency.p50Ms} ms, p99 ${oneProcess.latency.p99Ms} ms, ${oneProcess.errors} errors of ${oneProcess.requests}; ${r.queue.oneProcess.cpuMsPerRequest} ms of CPU per request, ${r.queue.oneProcess.memoryUnderLoadMb} MB peak) | ${r.queue.oneProcess.ratio} |`,
    `| 1c. Queue, smsq's four services in one process (as npm start runs them): the same load, on a stack of its own | ${r.together.smsq.perSecond} req/s (p50 ${r.together.smsq.latency.p50Ms} ms, p99 ${r.together.smsq.latency.p99Ms} ms, ${r.together.smsq.errors} errors of ${r.together.smsq.requests}; ${r.together.cpuMsPerRequest} ms of CPU per request, ${r.together.memoryUnderLoadMb} MB peak) | pgbench (1.): ${r.queue.baseline.tps} tx/s | ${Math.round((r.together.smsq.perSecond / r.queue.baseline.tps) * 100) / 100} |`,
    `| 2. Deliver: ${r.settings.deliver.workers} workers, ${r.deliver.backlog} tasks | ${r.deliver.smsq.perSecond} tasks/s (claim p50 ${r.deliver.smsq.claimLatency?.p50Ms} ms, p99 ${r.deliver.smsq.claimLatency?.p99Ms} ms; ${r.deliver.smsq.doubleClaims} double claims, ${r.deliver.leftPending} left) | pgbench: ${r.deliver.baseline.tps} tx/s (${r.deliver.baseline.clients} connections) | ${r.deliver.ratio} |`,
    `| 2b. Deliver while failover works: ${r.failover.rounds.length / 2} pairs of rounds of ${r.failover.backlog} tasks, 32 workers; beside them ${r.failover.stranded.moving} gateways disabled as the round starts and ${r.failover.stranded.atLimit} at their daily limit with ${r.failover.stranded.movablePerGateway} movable tasks each, ${r.failover.stranded.pinned} disabled with ${r.failover.stranded.pinnedPerGateway} pinned tasks each | ${r.failover.failoverPerSecond} tasks/s (median; ${r.failover.movedPerSecond} tasks moved/s; dispatch ${r.failover.dispatchCpuMs.failover} ms of CPU per task) | the same rounds without stranded gateways: ${r.failover.baselinePerSecond} tasks/s (dispatch ${r.failover.dispatchCpuMs.baseline} ms of CPU per task) | ${r.failover.ratio} (median of the pairs: ${r.failover.pairRatios.join(', ')}) |`,
    `| 3. Claim latency, ${r.growth.small.pending} pending | p50 ${r.growth.small.api.p50Ms} ms, p99 ${r.growth.small.api.p99Ms} ms | SQL alone: ${r.growth.small.sqlLatencyAverageMs} ms | |`,
    `| 3. Claim latency, ${r.growth.large.pending} pending | p50 ${r.growth.large.api.p50Ms} ms, p99 ${r.growth.large.api.p99Ms} ms | SQL alone: ${r.growth.large.sqlLatencyAverageMs} ms | ${r.growth.ratio} × the small backlog's |`,
    `| 4. create-task at ${r.normalLoad.ratePerS} req/s (half of 1.) | p50 ${r.normalLoad.smsq.latency.p50Ms} ms, p99 ${r.normalLoad.smsq.latency.p99Ms} ms, ${r.normalLoad.smsq.errors} errors | | |`,
    `| 4b. create-task at ${r.fixedRateLoad.ratePerS} req/s | p50 ${r.fixedRateLoad.smsq.latency.p50Ms} ms, p99 ${r.fixedRateLoad.smsq.latency.p99Ms} ms, ${r.fixedRateLoad.smsq.errors} errors | | |`,
    '',
    '### CPU time of the services per request (ms)',
    '',
    'Throughput on a machine shared with other work moves with that work; the CPU time the services spend per request does not, and it bounds what 2 cores can do: 2,000 ms of CPU per second divided by it.',
    '',
    `| | ${services.join(' | ')} | all |`,
    `|---|${services.map(() => '---:').join('|')}|---:|`,
    `| per create-task (scenario 1) | ${services.map((s) => r.queue.cpuMsPerRequest[s]).join(' | ')} | ${r.queue.cpuMsPerRequest.all} |`,
    `| per delivered task (scenario 2) | ${services.map((s) => r.deliver.cpuMsPerTask[s]).join(' | ')} | ${r.deliver.cpuMsPerTask.all} |`,
    '',
    `The one-process implementation (1b), in its one process: ${r.queue.oneProcess.cpuMsPerRequest} ms per create-task.`,
    '',
    '### Resident memory (MB)',
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
    `Queue / pgbench       ${bar(r.queue.ratio, 1, 40, TARGETS.queueRatio)} ${r.queue.ratio.toFixed(2)} (target ${TARGETS.queueRatio.toFixed(2)})`,
    `Queue / one-process   ${bar(r.queue.oneProcess.ratio, 1, 40, TARGETS.queueOneProcessRatio)} ${r.queue.oneProcess.ratio.toFixed(2)} (target ${TARGETS.queueOneProcessRatio.toFixed(2)})`,
    `Deliver / pgbench     ${bar(r.deliver.ratio, 1, 40, TARGETS.deliverRatio)} ${r.deliver.ratio.toFixed(2)} (target ${TARGETS.deliverRatio.toFixed(2)})`,
    `Deliver, failover    ${bar(r.failover.ratio, 1, 40, TARGETS.failoverRatio)} ${r.failover.ratio.toFixed(2)} (target ${TARGETS.failoverRatio.toFixed(2)}; against Deliver alone)`,
    `                      0${' '.repeat(38)}1.0`,
    '```',
  ];
  return lines.join('\n');
}

export function printSummary(r: BenchResults): void {
  const out = [
    '',
    `Queue:   ${r.queue.smsq.perSecond} req/s vs ${r.queue.baseline.tps} tx/s baseline -> ratio ${r.queue.ratio} (target >= ${TARGETS.queueRatio}), ${r.queue.smsq.errors} errors`,
    `         vs ${r.queue.oneProcess.implementation.perSecond} req/s of the one-process implementation -> ratio ${r.queue.oneProcess.ratio} (target >= ${TARGETS.queueOneProcessRatio}), ${r.queue.oneProcess.implementation.errors} errors`,
    `Deliver: ${r.deliver.smsq.perSecond} tasks/s vs ${r.deliver.baseline.tps} tx/s baseline -> ratio ${r.deliver.ratio} (target >= ${TARGETS.deliverRatio}), ${r.deliver.smsq.doubleClaims} double claims`,
    `Failover: ${r.failover.failoverPerSecond} tasks/s while moving ${r.failover.movedPerSecond} tasks/s vs ${r.failover.baselinePerSecond} tasks/s alone -> ratio ${r.failover.ratio} (target >= ${TARGETS.failoverRatio})`,
    `Growth:  claim p50 ${r.growth.small.api.p50Ms} ms at ${r.growth.small.pending}, ${r.growth.large.api.p50Ms} ms at ${r.growth.large.pending} -> ratio ${r.growth.ratio} (target <= ${TARGETS.claimGrowth})`,
    `Normal:  p99 ${r.normalLoad.smsq.latency.p99Ms} ms at ${r.normalLoad.ratePerS} req/s (target <= ${TARGETS.halfLoadP99Ms} ms), ${r.fixedRateLoad.smsq.latency.p99Ms} ms at ${r.fixedRateLoad.ratePerS} req/s (target <= ${TARGETS.fixedRateP99Ms} ms)`,
    `CPU:     ${r.queue.cpuMsPerRequest.all} ms per create-task, ${r.deliver.cpuMsPerTask.all} ms per delivered task (all services)`,
    `Memory:  peak under load ${JSON.stringify(r.queue.memoryUnderLoadMb)} MB (target <= ${TARGETS.residentMb}), together ${r.queue.memoryUnderLoadTotalMb} MB, in one process ${r.together.memoryUnderLoadMb} MB (target <= ${TARGETS.residentTotalMb} each way)`,
    '',
    ...r.targets.map((t) => `${t.met ? 'met    ' : 'NOT MET'}  ${t.name}: ${t.measured}${t.unit} (${t.kind} ${t.limit}${t.unit})`),
    '',
  ];
  process.stdout.write(out.join('\n'));
}
