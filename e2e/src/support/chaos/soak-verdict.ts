import type { MajorGc } from '../major-gc.js';
import type { ProcessName } from '../stack.js';
import type { AnswerTiming } from './chaos-http.js';
import type { ChaosReport } from './chaos-run.js';
import { busyShare, SOAK_PROCESSES, SOAK_TABLES, type RetentionAges, type Sample, type SoakTable } from './soak-samples.js';

/** The soak's rules (docs/reliability.md, "30-minute soak"). */
export interface SoakRules {
  /** Memory is judged over the last this many ms of the faults' schedule (20 minutes in the full run). */
  memoryWindowMs: number;
  /** A process's growth over the window (memoryFigures: the heap its major GCs left, else its RSS floors): less than this fraction. */
  memoryGrowthLimit: number;
  /** Each fault's end until create-task's p99 is back under its quiet value: at most this. */
  recoveryLimitMs: number;
  /**
   * A window of answers is back under a p99 value when at most this many of them (of at least
   * `p99AtLeast`) were slower: with 100 answers drawn from a service whose p99 is that value, 5 or
   * more are slower only 0.34 % of the time (binomial), so "not back" is evidence, not sampling noise.
   */
  slowAtMost: number;
  /** The spell before each fault whose p99 is that fault's quiet value too: this long, from no earlier than `recoveryLimitMs` after the previous fault's end. */
  beforeFaultMs: number;
  /** Fewest answers that spell's p99 is taken from; with fewer, the quiet phase's alone. */
  beforeFaultAtLeast: number;
  /** The rolling p99 is over the probe's answers of this last span. */
  p99WindowMs: number;
  /** Fewest answers a p99 is computed from. */
  p99AtLeast: number;
  /** The start of the quiet phase left out of the quiet p99: the services' warm-up (JIT, pools) and, in a full soak, the minutes before retention and webhook retries run at their steady pace. */
  quietWarmUpMs: number;
  /** The services' SMSQ_RETENTION_* settings, in seconds, and the slack beyond retention + 2 intervals. */
  retention: { outboxS: number; webhookS: number; intervalS: number; marginS: number };
  /** The median count of a table's rows not done with (not yet published, still to be tried) over the second half of the memory window over the first half's: at most this factor (or `plateauSlackRows` more). */
  plateauFactor: number;
  plateauSlackRows: number;
}

export interface FaultRecovery {
  fault: string;
  startedAt: number | null;
  endedAt: number | null;
  /** Until every service answered /readyz again (the chaos run's figure). */
  readyInMs: number | null;
  /** The p99 of the probe's answers in the spell before the fault (null: too few answers). */
  beforeP99Ms: number | null;
  /** Its quiet value: the higher of the quiet phase's p99 and `beforeP99Ms`. */
  boundMs: number | null;
  /** From the fault's end until a window of the probe's answers was back under `boundMs` (at most `slowAtMost` slower); null: not within the limit. */
  p99BackInMs: number | null;
  /** That window's p99, and how many of its answers were slower than `boundMs`. */
  p99AtBackMs: number | null;
  slowAtBack: number | null;
}

export interface ProcessMemory {
  process: ProcessName;
  pid: number | null;
  /** What is judged: the heap each major collection left (with at least MIN_MAJOR_GCS of them in the window), else the RSS floors. */
  judgedOn: 'heap after major GC' | 'RSS' | null;
  firstMb: number | null;
  lastMb: number | null;
  growthPct: number | null;
  /** The RSS line through each minute's lowest sample, reported beside the heap when that is judged. */
  rss?: { firstMb: number; lastMb: number; growthPct: number };
  majorGcs?: number;
  /** Why it is not judged (not running through the whole window, restarted in it). */
  notJudged?: string;
}

export interface TableBound {
  table: SoakTable;
  limitS: number;
  /** Age of the oldest row retention should have removed, at the end of the faults (null: none). */
  oldestS: number | null;
  /** All its rows, the most in each half of the memory window: what the last 120 s of load left (reported, not judged: it follows the load's pace). */
  firstHalfMax: number | null;
  secondHalfMax: number | null;
  /** Its rows not done with, which retention keeps whatever their age: the median in each half of the window (judged: they must not pile up). */
  notDoneFirstHalfMedian: number | null;
  notDoneSecondHalfMedian: number | null;
  endCount: number | null;
}

export interface SoakFigures {
  startedAt: string;
  minutes: number;
  faultEveryS: number;
  rules: SoakRules;
  probe: { everyMs: number; answers: number; notCreated: number };
  /** Requests with no proper answer (none, or 5xx), by kind, by status and error. */
  failures: Record<string, Record<string, number>>;
  /** The load's start, and the quiet p99's span (after the warm-up, until the first fault). */
  loadStartedAt: number;
  /**
   * The quiet phase's p99 over all its answers, and the highest of its rolling p99s (computed as
   * after a fault: the same span, the same fewest answers): the top of the range the rolling p99
   * keeps to with no fault at all, which a recovery is held to.
   */
  quiet: { from: number; to: number; answers: number; p99Ms: number | null; rollingP99MaxMs: number | null };
  faults: FaultRecovery[];
  /** How busy the machine's cores were, in %: in the quiet phase's judged part, and from the load's start to the schedule's end. */
  cpuBusyPct: { quiet: number | null; run: number | null };
  memory: { from: number; to: number; processes: ProcessMemory[] };
  tables: TableBound[];
  webhooks: { accepted: number; refused: number; distinctEvents: number };
  /** The chaos run's own figures and its invariants' violations. */
  chaos: Omit<ChaosReport, 'faults'>;
  series: {
    /** Resident memory by process: [epoch ms, MB]. */
    rssMb: Partial<Record<ProcessName, Array<[number, number]>>>;
    /** The probe's rolling p99: [epoch ms, ms, or null when more than 1 % of its answers were not 201]. */
    p99Ms: Array<[number, number | null]>;
    rows: Partial<Record<SoakTable, Array<[number, number]>>>;
    /** The heap each major GC left, by process: [epoch ms, MB]. */
    heapMb: Partial<Record<ProcessName, Array<[number, number]>>>;
    /** The database's size: [epoch ms, MB]. */
    databaseMb: Array<[number, number]>;
  };
  verdict: { pass: boolean; failures: string[] };
}

/** The p99 of the answers that ended in [from, to]; an answer other than 201 counts as endless. Null with fewer than `atLeast`. */
export function p99(timings: AnswerTiming[], from: number, to: number, atLeast: number): number | null {
  const times = answerTimes(timings, from, to);
  return times.length < atLeast ? null : p99Of(times);
}

/** The times of the answers that ended in [from, to], an answer other than 201 as endless. */
function answerTimes(timings: AnswerTiming[], from: number, to: number): number[] {
  return timings.filter((timing) => timing.endedAt >= from && timing.endedAt <= to).map((timing) => (timing.status === 201 ? timing.ms : Infinity));
}

function p99Of(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length * 0.99) - 1]!;
}

/**
 * The highest rolling p99 of the span: a window of `p99WindowMs` ending every 250 ms, as
 * `p99Recovery` reads one. Infinity when a window had more than 1 % not 201; null with no window
 * of answers enough.
 */
export function highestRollingP99(timings: AnswerTiming[], from: number, to: number, rules: SoakRules): number | null {
  let highest: number | null = null;
  for (let at = from + rules.p99WindowMs; at <= to; at += 250) {
    const value = p99(timings, at - rules.p99WindowMs, at, rules.p99AtLeast);
    if (value !== null) highest = Math.max(highest ?? 0, value);
  }
  return highest;
}

/**
 * After `end`, the first moment a window of the probe's answers (those since the end, at most the
 * window's span, at least `p99AtLeast`) is back under `bound`: at most `slowAtMost` of them slower.
 */
export function p99Recovery(timings: AnswerTiming[], end: number, bound: number, rules: SoakRules): Pick<FaultRecovery, 'p99BackInMs' | 'p99AtBackMs' | 'slowAtBack'> {
  for (let at = end + 500; at <= end + rules.recoveryLimitMs; at += 250) {
    const times = answerTimes(timings, Math.max(end, at - rules.p99WindowMs), at);
    if (times.length < rules.p99AtLeast) continue;
    const slow = times.filter((ms) => ms > bound).length;
    if (slow <= rules.slowAtMost) return { p99BackInMs: at - end, p99AtBackMs: p99Of(times), slowAtBack: slow };
  }
  return { p99BackInMs: null, p99AtBackMs: null, slowAtBack: null };
}

/**
 * A fault's quiet value: the higher of the quiet phase's p99 and the p99 of the spell just before
 * the fault (from `beforeFaultMs` before it, no earlier than `recoveryLimitMs` after the previous
 * fault's end). Recovered is back to how the service ran before the fault, with the data and
 * backlogs the run has built by then (docs/decisions.md, "The soak's recovery rule").
 */
export function faultBound(timings: AnswerTiming[], fault: { startedAt?: number }, previous: { endedAt?: number } | undefined, quietMs: number | null, rules: SoakRules): Pick<FaultRecovery, 'beforeP99Ms' | 'boundMs'> {
  let beforeP99Ms: number | null = null;
  if (fault.startedAt !== undefined) {
    const from = Math.max(fault.startedAt - rules.beforeFaultMs, previous?.endedAt === undefined ? 0 : previous.endedAt + rules.recoveryLimitMs);
    const before = p99(timings, from, fault.startedAt - 1, rules.beforeFaultAtLeast);
    if (before !== null && Number.isFinite(before)) beforeP99Ms = before;
  }
  return { beforeP99Ms, boundMs: quietMs === null ? null : Math.max(quietMs, beforeP99Ms ?? 0) };
}

/** The SMSGate stand-ins keep every SMS they sent (the sent-once check counts them): they grow by design and stand for a phone, not for smsq. */
const STAND_INS = new Set<string>(['gateway-sim']);

/**
 * Each smsq process running all through the window, with one pid, is judged by the heap its major
 * garbage collections left: a least-squares line through every one of them in the window, its
 * value at the window's end against its value at the start. What a leak grows is what survives a
 * full collection; a process's RSS also holds the heap V8 has not given back yet, and swings by
 * 20–40 % over minutes with no growth (the fourth and fifth runs, docs/decisions.md, "The soak's
 * memory rule"). A process with fewer than MIN_MAJOR_GCS in the window (its old space never
 * filled) is judged by the level its RSS returns to: the lowest sample of each minute, a line
 * through those floors. The RSS line is reported for every process.
 */
const MIN_MAJOR_GCS = 3;

export function memoryFigures(samples: Sample[], majorGcs: SoakInputs['majorGcs'], from: number, to: number, everyMs: number): ProcessMemory[] {
  const inWindow = samples.filter((sample) => sample.at >= from && sample.at <= to);
  return SOAK_PROCESSES.map((process): ProcessMemory => {
    const seen = inWindow.map((sample) => sample.rss[process]);
    const pids = new Set(seen.map((one) => one?.pid ?? null));
    const lastPid = seen.at(-1)?.pid ?? null;
    if (STAND_INS.has(process.split('#')[0]!)) return { process, pid: lastPid, judgedOn: null, firstMb: null, lastMb: null, growthPct: null, notJudged: 'a stand-in phone: it keeps every SMS it sent, for the sent-once check' };
    if (seen.length === 0 || pids.has(null) || pids.size !== 1 || inWindow[0]!.at > from + 2 * everyMs) {
      const why = seen.length === 0 ? 'no samples in the window' : pids.size > 1 ? `restarted in the window (pids ${[...pids].filter((pid) => pid !== null).join(' → ')})` : 'not running all through the window';
      return { process, pid: lastPid, judgedOn: null, firstMb: null, lastMb: null, growthPct: null, notJudged: why };
    }
    const floors = floorGrowth(inWindow.map((sample) => [sample.at, sample.rss[process]!.kb]), from, to);
    const mb = (kb: number) => Math.round(kb / 102.4) / 10;
    const rss = { firstMb: mb(floors.first), lastMb: mb(floors.last), growthPct: floors.pct };
    const gcs = (majorGcs[process] ?? []).filter((gc) => gc.pid === lastPid && gc.at >= from && gc.at <= to);
    if (gcs.length < MIN_MAJOR_GCS) return { process, pid: lastPid, judgedOn: 'RSS', ...rss, rss, majorGcs: gcs.length };
    const heap = lineGrowth(gcs.map((gc) => [gc.at - from, gc.heapMb]), to - from);
    const round = (value: number) => Math.round(value * 10) / 10;
    return { process, pid: lastPid, judgedOn: 'heap after major GC', firstMb: round(heap.first), lastMb: round(heap.last), growthPct: heap.pct, rss, majorGcs: gcs.length };
  });
}

/** A least-squares line through `[x, value]`: its value at 0 and at `end`, and the growth between them in % (one decimal). */
function lineGrowth(points: Array<[number, number]>, end: number): { first: number; last: number; pct: number } {
  const line = leastSquares(points);
  const first = line.at(0);
  const last = line.at(end);
  return { first, last, pct: Math.round((last / first - 1) * 1000) / 10 };
}

const MINUTE_MS = 60_000;

/** The line through each minute's lowest sample of `[at, value]` over [from, to]: its value at both ends, and the growth in % (one decimal). */
export function floorGrowth(points: Array<[number, number]>, from: number, to: number): { first: number; last: number; pct: number } {
  const floors = new Map<number, [number, number]>();
  for (const [at, value] of points) {
    if (at < from || at > to) continue;
    const minute = Math.min(Math.floor((at - from) / MINUTE_MS), Math.max(0, Math.ceil((to - from) / MINUTE_MS) - 1));
    const floor = floors.get(minute);
    if (!floor || value < floor[1]) floors.set(minute, [at - from, value]);
  }
  return lineGrowth([...floors.values()], to - from);
}

function leastSquares(points: Array<[number, number]>): { at(x: number): number } {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const spread = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const slope = spread === 0 ? 0 : points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0) / spread;
  return { at: (x) => meanY + slope * (x - meanX) };
}

export function tableBounds(samples: Sample[], ages: RetentionAges, from: number, to: number, rules: SoakRules): TableBound[] {
  const middle = (from + to) / 2;
  const counts = (of: (sample: Sample) => number | undefined, start: number, end: number) =>
    samples.filter((sample) => sample.at >= start && sample.at <= end).map(of).filter((count): count is number => count !== undefined);
  const max = (table: SoakTable, start: number, end: number) => {
    const all = counts((sample) => sample.rows[table], start, end);
    return all.length === 0 ? null : Math.max(...all);
  };
  const median = (table: SoakTable, start: number, end: number) => {
    const sorted = counts((sample) => sample.notDone[table], start, end).sort((a, b) => a - b);
    return sorted.length === 0 ? null : sorted[Math.floor((sorted.length - 1) / 2)]!;
  };
  const { outboxS, webhookS, intervalS, marginS } = rules.retention;
  return SOAK_TABLES.map((table) => ({
    table,
    limitS: (table === 'dispatch.webhook_deliveries' ? webhookS : outboxS) + 2 * intervalS + marginS,
    oldestS: ages[table],
    firstHalfMax: max(table, from, middle),
    secondHalfMax: max(table, middle, to),
    notDoneFirstHalfMedian: median(table, from, middle),
    notDoneSecondHalfMedian: median(table, middle, to),
    endCount: [...samples].reverse().find((sample) => sample.rows[table] !== undefined)?.rows[table] ?? null,
  }));
}

/** A table is bounded by retention when nothing done with outlives retention's limit and the rows not done with do not pile up. */
export function tableFailures(table: TableBound, rules: SoakRules): string[] {
  const failures: string[] = [];
  if (table.oldestS !== null && table.oldestS > table.limitS) failures.push(`tables: ${table.table} keeps a row done with ${table.oldestS} s ago (retention + 2 intervals + margin: ${table.limitS} s)`);
  const [first, second] = [table.notDoneFirstHalfMedian, table.notDoneSecondHalfMedian];
  if (first === null || second === null) failures.push(`tables: ${table.table}'s rows not done with were not counted in both halves of the window`);
  else if (second > Math.max(first * rules.plateauFactor, first + rules.plateauSlackRows)) {
    failures.push(`tables: ${table.table}'s rows not done with pile up: a median of ${second} in the window's second half against ${first} in its first`);
  }
  return failures;
}

export interface SoakInputs {
  report: ChaosReport;
  rules: SoakRules;
  minutes: number;
  faultEveryS: number;
  probeEveryMs: number;
  probeTimings: AnswerTiming[];
  loadStartedAt: number;
  samples: Sample[];
  /** Every major garbage collection each process traced, with the heap it left. */
  majorGcs: Partial<Record<ProcessName, MajorGc[]>>;
  sampleEveryMs: number;
  /** When the faults' schedule ended (sampling stopped), and the retention ages read then. */
  scheduleEndedAt: number;
  ages: RetentionAges;
  webhooks: SoakFigures['webhooks'];
  failures: SoakFigures['failures'];
}

/** The figures of a soak and its verdict: 0 violations, memory, recovery, tables. */
export function soakFigures(inputs: SoakInputs): SoakFigures {
  const { report, rules, probeTimings: timings, samples } = inputs;
  const firstFault = report.faults[0]?.startedAt ?? inputs.scheduleEndedAt;
  const quietFrom = inputs.loadStartedAt + rules.quietWarmUpMs;
  const quietP99 = p99(timings, quietFrom, firstFault, rules.p99AtLeast);
  // Reported and plotted beside it: the top of the range the quiet phase's rolling p99 kept to.
  const quietBound = highestRollingP99(timings, quietFrom, firstFault, rules);
  const quietValue = quietP99 !== null && Number.isFinite(quietP99) ? quietP99 : null;
  const faults = report.faults.map((fault, index): FaultRecovery => {
    const { beforeP99Ms, boundMs } = faultBound(timings, fault, report.faults[index - 1], quietValue, rules);
    return {
      fault: fault.fault,
      startedAt: fault.startedAt ?? null,
      endedAt: fault.endedAt ?? null,
      readyInMs: fault.recoveredInMs,
      beforeP99Ms,
      boundMs,
      ...(fault.endedAt === undefined || boundMs === null ? { p99BackInMs: null, p99AtBackMs: null, slowAtBack: null } : p99Recovery(timings, fault.endedAt, boundMs, rules)),
    };
  });
  const memoryFrom = inputs.scheduleEndedAt - rules.memoryWindowMs;
  const memory = memoryFigures(samples, inputs.majorGcs, memoryFrom, inputs.scheduleEndedAt, inputs.sampleEveryMs);
  const tables = tableBounds(samples, inputs.ages, memoryFrom, inputs.scheduleEndedAt, rules);

  const failures: string[] = [];
  for (const violation of report.violations) failures.push(`violation [${violation.invariant}] client ${violation.clientId ?? '-'}: ${violation.detail.split('\n')[0]}`);
  if (quietValue === null) failures.push(`recovery: no quiet p99 of create-task (${quietP99 === null ? 'too few answers' : 'more than 1 % of the quiet answers were not 201'})`);
  for (const fault of faults) {
    if (fault.p99BackInMs === null && fault.boundMs !== null) failures.push(`recovery: ${fault.fault}: create-task's p99 not back under ${fault.boundMs} ms within ${rules.recoveryLimitMs / 1000} s of the fault's end (every window of ${rules.p99AtLeast} answers or more had more than ${rules.slowAtMost} slower)`);
  }
  for (const one of memory) {
    if (one.growthPct !== null && one.growthPct >= rules.memoryGrowthLimit * 100) failures.push(`memory: ${one.process}'s ${one.judgedOn} grew ${one.growthPct} % (${one.firstMb} → ${one.lastMb} MB) over the window`);
  }
  const services = new Set(SOAK_PROCESSES.map((process) => process.split('#')[0]!).filter((service) => !STAND_INS.has(service)));
  for (const service of services) {
    if (!memory.some((one) => one.process.split('#')[0] === service && one.growthPct !== null)) failures.push(`memory: no copy of ${service} ran all through the window, so it is not judged`);
  }
  for (const table of tables) failures.push(...tableFailures(table, rules));

  const step = Math.max(inputs.sampleEveryMs, 5_000);
  const p99Series: Array<[number, number | null]> = [];
  for (let at = inputs.loadStartedAt + rules.p99WindowMs; at <= inputs.scheduleEndedAt; at += step) {
    const value = p99(timings, at - rules.p99WindowMs, at, rules.p99AtLeast);
    p99Series.push([at, value === null || Number.isFinite(value) ? value : null]);
  }
  const rssMb: SoakFigures['series']['rssMb'] = {};
  for (const process of SOAK_PROCESSES) {
    const points = samples.filter((sample) => sample.rss[process]).map((sample): [number, number] => [sample.at, Math.round(sample.rss[process]!.kb / 102.4) / 10]);
    if (points.length > 0) rssMb[process] = points;
  }
  const rows: SoakFigures['series']['rows'] = {};
  for (const table of SOAK_TABLES) rows[table] = samples.filter((sample) => sample.rows[table] !== undefined).map((sample): [number, number] => [sample.at, sample.rows[table]!]);
  const { faults: _faults, ...chaos } = report;
  return {
    startedAt: report.startedAt,
    minutes: inputs.minutes,
    faultEveryS: inputs.faultEveryS,
    rules,
    probe: { everyMs: inputs.probeEveryMs, answers: timings.length, notCreated: timings.filter((timing) => timing.status !== 201).length },
    failures: inputs.failures,
    loadStartedAt: inputs.loadStartedAt,
    quiet: {
      from: quietFrom,
      to: firstFault,
      answers: timings.filter((timing) => timing.endedAt >= quietFrom && timing.endedAt < firstFault).length,
      p99Ms: quietP99 !== null && Number.isFinite(quietP99) ? quietP99 : null,
      rollingP99MaxMs: quietBound !== null && Number.isFinite(quietBound) ? quietBound : null,
    },
    faults,
    cpuBusyPct: { quiet: percent(busyShare(samples, quietFrom, firstFault)), run: percent(busyShare(samples, inputs.loadStartedAt, inputs.scheduleEndedAt)) },
    memory: { from: memoryFrom, to: inputs.scheduleEndedAt, processes: memory },
    tables,
    webhooks: inputs.webhooks,
    chaos,
    series: { rssMb, heapMb: Object.fromEntries(Object.entries(inputs.majorGcs).map(([name, gcs]) => [name, gcs!.map((gc): [number, number] => [gc.at, gc.heapMb])])), p99Ms: p99Series, rows, databaseMb: samples.filter((sample) => sample.databaseMb !== undefined).map((sample): [number, number] => [sample.at, sample.databaseMb!]) },
    verdict: { pass: failures.length === 0, failures },
  };
}

function percent(share: number | null): number | null {
  return share === null ? null : Math.round(share * 1000) / 10;
}

/** The verdict and its figures as a person reads them. */
export function printSoak(figures: SoakFigures): string {
  const s = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
  const time = (at: number | null) => (at === null ? '-' : new Date(at).toISOString().slice(11, 19));
  const signed = (pct: number) => `${pct >= 0 ? '+' : ''}${pct}`;
  return [
    `soak of ${figures.startedAt}: ${figures.minutes} min, a fault every ${figures.faultEveryS} s, ${figures.chaos.durationS} s in all`,
    ...Object.entries(figures.chaos.requestsSent).map(([kind, count]) => `  ${kind}: ${count} sent (${Object.entries(figures.chaos.answers[kind] ?? {}).map(([status, n]) => `${status}: ${n}`).join(', ')})`),
    ...Object.entries(figures.failures).map(([kind, byWhy]) => `  ${kind} without a proper answer: ${Object.entries(byWhy).map(([why, n]) => `${why} ×${n}`).join('; ')}`),
    `  webhook receiver: ${figures.webhooks.accepted} accepted, ${figures.webhooks.refused} refused with 500, ${figures.webhooks.distinctEvents} distinct events`,
    `  tasks at the end: ${Object.entries(figures.chaos.tasks).map(([status, count]) => `${status} ${count}`).join(', ')}`,
    `  probe: one create-task every ${figures.probe.everyMs} ms, ${figures.probe.answers} answers (${figures.probe.notCreated} not 201); quiet p99 ${figures.quiet.p99Ms ?? '-'} ms over ${figures.quiet.answers} answers, its rolling p99 at most ${figures.quiet.rollingP99MaxMs ?? '-'} ms`,
    `  the machine's cores were ${figures.cpuBusyPct.quiet ?? '-'} % busy in the quiet phase (judged part), ${figures.cpuBusyPct.run ?? '-'} % over the whole run`,
    ...figures.faults.map((fault) => `    ${time(fault.startedAt)}–${time(fault.endedAt)} ${fault.fault}: ready after ${s(fault.readyInMs)}; p99 before it ${fault.beforeP99Ms ?? '-'} ms, held to ${fault.boundMs ?? '-'} ms; back under it after ${s(fault.p99BackInMs)}${fault.p99AtBackMs === null ? '' : ` (p99 ${fault.p99AtBackMs} ms, ${fault.slowAtBack} slower)`}`),
    `  memory over ${time(figures.memory.from)}–${time(figures.memory.to)} (a least-squares line, at the start → at the end, through the heap each major GC left, else through each minute's lowest RSS sample):`,
    ...figures.memory.processes.map((one) => `    ${one.process}: ${one.growthPct === null ? `not judged, ${one.notJudged}` : `${one.judgedOn} ${one.firstMb} → ${one.lastMb} MB (${signed(one.growthPct)} %, ${one.majorGcs} major GCs)${one.judgedOn === 'RSS' ? '' : `; RSS ${one.rss!.firstMb} → ${one.rss!.lastMb} MB (${signed(one.rss!.growthPct)} %)`}`}`),
    `  tables (oldest row retention should have removed / limit; rows not done with, median first half → second half of the window; all rows, most first half → second half; at the end):`,
    ...figures.tables.map((table) => `    ${table.table}: ${table.oldestS ?? '-'} s / ${table.limitS} s; not done ${table.notDoneFirstHalfMedian ?? '-'} → ${table.notDoneSecondHalfMedian ?? '-'}; all ${table.firstHalfMax ?? '-'} → ${table.secondHalfMax ?? '-'}; ${table.endCount ?? '-'} rows`),
    `  database: ${figures.series.databaseMb.map(([, mb]) => mb).filter((_, index, all) => index === 0 || index === all.length - 1).join(' → ') || '-'} MB from the first sample to the last`,
    `  violations of the chaos invariants: ${figures.chaos.violations.length}`,
    `  verdict: ${figures.verdict.pass ? 'PASS' : 'FAIL'}`,
    ...figures.verdict.failures.map((failure) => `    ${failure}`),
  ].join('\n');
}
