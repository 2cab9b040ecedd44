import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, FaultProxies, freePort, throughProxy, until } from '@smsq/testing';
import { PrivateInfra, type InfraName } from '../private-infra.js';
import { Stack, type CoreService, type ProcessName } from '../stack.js';
import { registerPhone } from '../worker-api.js';
import { call, medianMs, RequestTally, sleep } from './chaos-http.js';
import { ChaosPhones, PHONE_SILENT_S, type StandIn } from './chaos-phones.js';
import { ClientLoad, type ChaosClient, type LoadOptions } from './client-load.js';
import { findViolations, phoneFigures, taskFigures, unsettledWork, type PhoneFigures, type Violation } from './invariants.js';
import { RoundRobinProxy } from './round-robin.js';

/** A connection the fault proxy sits on: a service's to one of the three servers, or a worker's to the gateway. */
export type Link = InfraName | 'gateway';

export type Fault =
  /**
   * SIGKILL, and the process started again half a second later, or `downMs` later while the faults
   * after it go on; with `afterHangs`, only once every hung phone answers again.
   */
  | { kill: ProcessName; downMs?: number; afterHangs?: true }
  | { restart: InfraName }
  /** Every open connection goes silent for good (no FIN, no RST) and new ones are silent too, for `forMs`. */
  | { silence: Link; forMs: number }
  /** 200 ± 100 ms on every chunk each way, for `forMs`. */
  | { latency: Link; forMs: number }
  /** Every open connection reset at once. */
  | { reset: Link }
  /** A phone takes every request of its worker and answers none, for `forMs`, while the faults after it go on. */
  | { hang: StandIn; forMs: number };

/** Each server in turn silent, slow, then its connections reset: the faults a network makes without a process dying. */
export function networkFaults(silenceMs: number, latencyMs: number, links: Link[] = ['redis', 'postgres', 'rabbitmq']): Fault[] {
  return [
    ...links.map((link) => ({ silence: link, forMs: silenceMs })),
    ...links.map((link) => ({ latency: link, forMs: latencyMs })),
    ...links.map((link) => ({ reset: link })),
  ];
}

/**
 * The first phone's worker dead long enough for its phone to go silent and for a failover sweep or
 * two (every 5 s) to move its waiting tasks to the second phone, then revived. It dies only once
 * the phone answers again: killed while the phone still hung, it would take the sends it was
 * holding with it before their claims lapsed, and no outcome would be left unknown (on a fast
 * machine the kills after the hang end before it does).
 */
export const WORKER_DOWN: Fault = { kill: 'worker', downMs: (PHONE_SILENT_S + 14) * 1000, afterHangs: true };
/** The first phone hung, its worker alive: it takes the worker's SMS and sends them, and answers nothing, for 20 s. */
export const PHONE_HANG: Fault = { hang: 'gateway-sim', forMs: 20_000 };

/**
 * Every process SIGKILLed and every backing service restarted, one after another; the first phone
 * hangs while the first kills run, and its worker, once the phone answers again, stays dead while
 * the restarts run.
 */
export const ALL_FAULTS: Fault[] = [
  PHONE_HANG,
  { kill: 'api-gateway' },
  { kill: 'billing' },
  { kill: 'dispatch' },
  { kill: 'inbox' },
  WORKER_DOWN,
  { restart: 'redis' },
  { restart: 'postgres' },
  { restart: 'rabbitmq' },
];

/** With two of everything: every copy of every process SIGKILLed in turn (the other serving meanwhile), then the restarts. */
export const REPLICA_FAULTS: Fault[] = [
  PHONE_HANG,
  { kill: 'api-gateway' },
  { kill: 'billing#2' },
  { kill: 'dispatch' },
  { kill: 'inbox#2' },
  WORKER_DOWN,
  { kill: 'api-gateway#2' },
  { kill: 'billing' },
  { kill: 'dispatch#2' },
  { kill: 'inbox' },
  { kill: 'worker#2' },
  { restart: 'redis' },
  { restart: 'postgres' },
  { restart: 'rabbitmq' },
];

export interface ChaosOptions {
  faults: Fault[];
  /** Load before the first fault and between faults once everything is ready again. */
  quietMs: number;
  /** Clients delivering through the driver's claim/report loop; one more, with two phones, is served by the real workers. */
  clients: number;
  /** Lease of a claim (SMSQ_CLAIM_TIMEOUT_S); at least 13 s, so the real workers can give the SMSGate phone its ttl. */
  claimTimeoutS: number;
  /** Longest a service may take to be ready again after a fault before it counts as a violation. */
  recoveryTimeoutMs: number;
  log?: (line: string) => void;
  /** Where every service's log is written at the end, one file each. */
  logDir?: string;
  /** Where they are written when the run found a violation or failed outright (the short runs keep no logs otherwise). */
  logDirOnFailure?: string;
  /**
   * Two of every service (two gateways behind a round-robin, two billing, two dispatch, two
   * inbox, two pollers on every driver's phone), every background job running twice.
   */
  replicas?: boolean;
  /** Settings for every service beyond the run's own (the soak's retention). */
  env?: Record<string, string>;
  /** The dashboard too (two of it with `replicas`), sharing the sessions in Redis. */
  dashboards?: boolean;
  /**
   * A fixed schedule: each fault starts this long after the one before it started (or at once,
   * if that one took longer to recover), instead of a quiet spell after each recovery.
   */
  faultEveryMs?: number;
  /** Node's own flags for every process of the stack (Stack.start). */
  nodeFlags?: string[];
  /** The private Postgres's shared_buffers (PrivateInfra.start). */
  postgresSharedBuffers?: string;
  /** On a schedule, load with no fault for this long after the last fault's slot, before the load's extras stop (the soak ends as quiet as it began). */
  coolDownMs?: number;
  /** The load's mix beyond the chaos run's. */
  load?: Partial<LoadOptions>;
  /** A client of its own creating one task every this many ms, timed apart from the load (tally kind `probe-create-task`). */
  probeEveryMs?: number;
  /** Called once the load runs, before the first quiet spell: more load and sampling; stopped before the settling. */
  onLoad?: (run: RunningChaos) => Promise<{ stop(): Promise<void> }>;
}

/** What a soak hooks into while the run goes on. */
export interface RunningChaos {
  stack: Stack;
  /** The public API (the round-robin with replicas). */
  baseUrl: string;
  dashboardUrls: string[];
  clients: ChaosClient[];
  tally: RequestTally;
  /** The run's own database, read directly. */
  databaseUrl: string;
  log: (line: string) => void;
}

export interface FaultFigure {
  fault: string;
  /** When it began and when it was over (a kill: the process started again; a network fault: healed), epoch ms. */
  startedAt?: number;
  endedAt?: number;
  /** From the kill or restart, or from the end of a network fault, until every service answered /readyz with 200 again. */
  recoveredInMs: number | null;
  /** Network faults: from their end until create-task's median was back under twice its quiet value. */
  /** Create-task's median over the quiet spell just before the fault, when there were answers enough. */
  createP50BeforeMs?: number | null;
  createP50BackInMs?: number | null;
  /** Network faults: create-task's median in the 3 s after that (ms). */
  createP50AfterMs?: number | null;
}

export interface ChaosReport {
  startedAt: string;
  durationS: number;
  clients: number;
  replicas: boolean;
  requestsSent: Record<string, number>;
  answers: Record<string, Record<string, number>>;
  creates: { requested: number; created: number; gaveUp: number; otherFinal: number };
  reportsKept: number;
  unreportedClaims: number;
  inboundAcknowledged: number;
  tasks: Record<string, number>;
  kills: number;
  restarts: number;
  /** Silences, latencies and resets survived, each healed by time-outs alone (no process restarted). */
  networkFaults: number;
  /** Phones hung (they took requests and answered none) and answering again. */
  phoneFaults: number;
  /** The real workers' two phones: SMS each sent, tasks failover or a retry moved, and sends whose outcome the workers left unknown (a hung phone's), each left to its lease. */
  phones: PhoneFigures & { unknownOutcomes: number };
  /** create-task's median time before the first fault (ms). */
  quietCreateP50Ms: number | null;
  faults: FaultFigure[];
  violations: Violation[];
}

const DATABASE = 'smsq_chaos';

function describeFault(fault: Fault): string {
  if ('kill' in fault) return `SIGKILL ${fault.kill}${fault.downMs === undefined ? '' : `, back after ${fault.downMs / 1000} s`}`;
  if ('hang' in fault) return `${fault.hang} hangs ${fault.forMs / 1000} s`;
  if ('restart' in fault) return `restart ${fault.restart}`;
  if ('silence' in fault) return `silence ${fault.silence} ${fault.forMs / 1000} s`;
  if ('latency' in fault) return `latency ${fault.latency} 200±100 ms ${fault.forMs / 1000} s`;
  return `reset ${fault.reset}`;
}

const isNetworkFault = (fault: Fault) => 'silence' in fault || 'latency' in fault || 'reset' in fault;
const isLasting = (fault: Fault) => 'hang' in fault || ('kill' in fault && fault.downMs !== undefined);
/** How soon after a network fault every service must be ready, and create-task's median back under twice its quiet value. */
const NETWORK_RECOVERY_MS = 30_000;

/**
 * The chaos run: private Postgres, RabbitMQ and Redis; the services, a real worker and the gateway
 * simulator on them; a steady mix of client and worker requests; the faults one after another;
 * then, once everything settled, the checks of the issue.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const infra = await PrivateInfra.start({ postgresSharedBuffers: options.postgresSharedBuffers });
  const links = await FaultProxies.start();
  let stack: Stack | undefined;
  let proxy: RoundRobinProxy | undefined;
  let health: HealthWatch | undefined;
  /** Set once the run ends, early or not: a worker due back later is then left dead. */
  let ended = false;
  /** Set once the run has found no violation. */
  let clean = false;
  try {
    log(`private infrastructure: ${infra.databaseServerUrl}, ${infra.amqpUrl}, ${infra.redisUrl}`);
    // Every service reaches the servers through the fault proxy; the checks read them directly.
    const direct = infra.envFor(DATABASE);
    const proxied = async (name: InfraName, url: string) => throughProxy(url, await links.add(name, upstreamOf(url)));
    stack = await Stack.start({
      profile: 'A',
      nodeFlags: options.nodeFlags,
      env: {
        DATABASE_URL: await proxied('postgres', direct['DATABASE_URL']!),
        AMQP_URL: await proxied('rabbitmq', direct['AMQP_URL']!),
        REDIS_URL: await proxied('redis', direct['REDIS_URL']!),
        SMSQ_CLAIM_TIMEOUT_S: String(options.claimTimeoutS),
        SMSQ_SETTLE_AFTER_S: '3',
        SMSQ_RATE_LIMIT_RPS: '10000',
        // Short, so that a time-out that fails to heal a connection shows as a /healthz asking for a restart within the run.
        SMSQ_STUCK_LIMIT_S: '15',
        SMSQ_PHONE_SILENT_S: String(PHONE_SILENT_S),
        SMSQ_LOG_FORMAT: 'json',
        ...options.env,
      },
    });
    let replicaPorts: Record<CoreService, string> | undefined;
    if (options.replicas) {
      replicaPorts = await stack.launchReplicas();
      proxy = await RoundRobinProxy.start([stack.baseUrl, `http://127.0.0.1:${replicaPorts['api-gateway']}`]);
      if (!(await allReady(stack, 60_000, replicaPorts))) throw new Error(`the second copies did not become ready\n${stack.recentLogs()}`);
      log(`two of every service; the load goes through a round-robin at ${proxy.url}`);
    }
    const dashboardUrls = options.dashboards ? await startDashboards(stack, options.replicas === true) : [];
    const baseUrl = proxy?.url ?? stack.baseUrl;
    // The workers reach the gateway (or the round-robin) through the fault proxy too.
    const workerBaseUrl = `http://127.0.0.1:${await links.add('gateway', upstreamOf(baseUrl))}`;
    const { clients, phones } = await prepareClients(stack, options.clients, workerBaseUrl, options.probeEveryMs !== undefined);
    const tally = new RequestTally();
    const load = new ClientLoad(baseUrl, clients, tally, { failShare: 0.25, abandonShare: 0.1, createRetryMs: 150_000, createConcurrency: 2, pauseMs: 40, deliveryLoops: options.replicas ? 2 : 1, probeEveryMs: options.probeEveryMs, ...options.load });
    const loadStartedAt = Date.now();
    load.start();
    health = HealthWatch.start(servicePorts(stack, replicaPorts));
    const extra = await options.onLoad?.({ stack, baseUrl, dashboardUrls, clients, tally, databaseUrl: direct['DATABASE_URL']!, log });

    const faults: FaultFigure[] = [];
    const violations: Violation[] = [];
    /** Faults that outlast their step: a worker revived, a phone answering again. */
    const lasting: Promise<void>[] = [];
    /** The ends of the phones' hangs, for a fault that waits for them (a hang that fails to end fails the run through `lasting`). */
    const hangs: Promise<number>[] = [];
    await sleep(options.quietMs);
    // The quiet value every network fault's recovery is held to needs answers enough: on a busy
    // machine a stack just started may answer fewer than that within the spell, so the spell goes on
    // (for a minute at most) rather than leave those checks without a baseline.
    const quietMedian = () => medianMs(tally, 'create-task', 201, loadStartedAt, Date.now());
    await until(() => quietMedian() !== null, { timeoutMs: 60_000, intervalMs: 250 }).catch(() => undefined);
    const quietCreateP50Ms = quietMedian();
    log(`create-task's median before the faults: ${quietCreateP50Ms} ms`);
    const firstFaultAt = Date.now();
    for (const [index, fault] of options.faults.entries()) {
      const name = describeFault(fault);
      if (options.faultEveryMs !== undefined) await sleep(firstFaultAt + index * options.faultEveryMs - Date.now());
      // Claims abandoned from here would keep the settling waiting a whole lease after the load stops.
      if (index === options.faults.length - 1) load.stopAbandoning();
      if ('kill' in fault && fault.afterHangs) await Promise.allSettled(hangs);
      log(`${name}…`);
      const pids = runningPids(stack);
      const startedAt = Date.now();
      // The machine's own load drifts through a run (other suites run beside this one): the quiet
      // value a recovery is held to is the run's, or the spell just before this fault if slower.
      const beforeCreateP50Ms = medianMs(tally, 'create-task', 201, startedAt - options.quietMs, startedAt);
      let at = startedAt;
      let endedAt: number | undefined;
      /** A lasting fault's end, once it comes. */
      let ending: Promise<number> | undefined;
      if ('kill' in fault) {
        await stack.kill(fault.kill);
        // A supervisor restarts the killed process; nothing else is restarted by hand.
        if (fault.downMs === undefined) {
          await sleep(500);
          stack.launch(fault.kill);
          endedAt = Date.now();
        } else {
          ending = sleep(fault.downMs).then(() => (ended ? undefined : stack!.launch(fault.kill))).then(() => Date.now());
        }
      } else if ('hang' in fault) {
        await phones.hang(fault.hang, true);
        ending = sleep(fault.forMs).then(() => (ended ? undefined : phones.hang(fault.hang, false))).then(() => Date.now());
        hangs.push(ending);
      } else if ('restart' in fault) {
        await infra.restart(fault.restart);
      } else if ('reset' in fault) {
        await links.fault(fault.reset, { kind: 'reset' });
      } else {
        const link = 'silence' in fault ? fault.silence : fault.latency;
        await links.fault(link, 'silence' in fault ? { kind: 'silent' } : { kind: 'latency', meanMs: 200, jitterMs: 100 });
        await sleep(fault.forMs);
        await links.heal(link);
        // Recovery counts from the fault's end.
        at = Date.now();
      }
      endedAt ??= ending ? undefined : Date.now();
      const recovered = await allReady(stack, isNetworkFault(fault) ? NETWORK_RECOVERY_MS : options.recoveryTimeoutMs, replicaPorts);
      const recoveredInMs = recovered ? Date.now() - at : null;
      const figure: FaultFigure = { fault: name, startedAt, endedAt, recoveredInMs };
      if (ending) lasting.push(ending.then((end) => void (figure.endedAt = end)));
      faults.push(figure);
      log(`${name}: ${recovered ? `ready again after ${recoveredInMs} ms` : 'NOT ready again'}`);
      if (!recovered) violations.push({ invariant: 'recovers-by-itself', clientId: null, detail: `${name}: not ready within ${isNetworkFault(fault) ? NETWORK_RECOVERY_MS : options.recoveryTimeoutMs} ms\n${stack.recentLogs()}` });
      if (isNetworkFault(fault)) {
        const restarted = Object.entries(pids).filter(([process, pid]) => stack!.pidOf(process as ProcessName) !== pid).map(([process]) => process);
        if (restarted.length > 0) violations.push({ invariant: 'heals-without-restart', clientId: null, detail: `${name}: ${restarted.join(', ')} exited\n${stack.recentLogs()}` });
        if (quietCreateP50Ms !== null) {
          const baselineMs = Math.max(quietCreateP50Ms, beforeCreateP50Ms ?? 0);
          Object.assign(figure, { createP50BeforeMs: beforeCreateP50Ms }, await createLatencyRecovery(tally, at, baselineMs));
          log(`${name}: create-task's median back under ${2 * baselineMs} ms ${figure.createP50BackInMs === null ? 'NOT within 30 s' : `after ${figure.createP50BackInMs} ms (${figure.createP50AfterMs} ms)`}`);
          if (figure.createP50BackInMs === null) {
            const detail = `${name}: create-task's median not back under twice its quiet ${baselineMs} ms (${quietCreateP50Ms} ms before the faults, ${beforeCreateP50Ms ?? '-'} ms before this one) within 30 s of the fault's end`;
            violations.push({ invariant: 'latency-recovers', clientId: null, detail: `${detail}\n${createAnswersBySecond(tally, at)}` });
          }
        }
      }
      // A fault that lasts beyond its step (a worker still dead, a phone still hung) needs no quiet spell: the next fault overlaps it.
      if (!isLasting(fault) && options.faultEveryMs === undefined) await sleep(options.quietMs);
    }
    // On a schedule, the last fault gets its whole slot too.
    if (options.faultEveryMs !== undefined) await sleep(firstFaultAt + options.faults.length * options.faultEveryMs + (options.coolDownMs ?? 0) - Date.now());
    await Promise.all(lasting);
    await extra?.stop();
    violations.push(...health.stop().map((detail) => ({ invariant: 'heals-without-restart', clientId: null, detail })));

    log('stopping the load; waiting for the system to settle');
    await load.stopCreating();
    const clientIds = clients.map((client) => client.clientId);
    const databaseUrl = direct['DATABASE_URL']!;
    const settling = Date.now();
    let toldAt = settling;
    const settled = await eventually(async () => {
      const left = await unsettledWork(databaseUrl, clientIds);
      if (left.length > 0 && Date.now() - toldAt >= 5_000) {
        toldAt = Date.now();
        log(`settling: ${left.join(', ')}`);
      }
      if (left.length > 0) throw new Error(`not settled: ${left.join(', ')}`);
    }, { timeoutMs: options.claimTimeoutS * 1000 * 4 + 90_000, intervalMs: 500 }).then(() => undefined, (error: Error) => error.message);
    log(`settled after ${Date.now() - settling} ms`);
    await load.stopDelivering();
    if (settled) violations.push({ invariant: 'settles', clientId: null, detail: `${settled}\n${stack.recentLogs()}` });

    const servedClientId = clients.find((client) => !client.deliversItself)!.clientId;
    const phoneSends = { clientId: servedClientId, byPhone: await phones.sendsByPhone() };
    violations.push(...(await findViolations(databaseUrl, load.records, clientIds, 2_000, phoneSends)));
    // A lost or silent server is `unavailable` (503, retry later); a 500 is a bug.
    for (const [kind, byStatus] of Object.entries(tally.answers)) {
      if (byStatus['500']) violations.push({ invariant: 'no-internal-error', clientId: null, detail: `${kind}: ${byStatus['500']} answer(s) 500 internal_error` });
    }
    violations.push(...(await publicApiViolations(baseUrl, clients, load.records.creates, tally)));
    const creates = load.records.creates;
    clean = violations.length === 0;
    return {
      startedAt: new Date(started).toISOString(),
      durationS: Math.round((Date.now() - started) / 1000),
      clients: clients.length,
      replicas: options.replicas === true,
      requestsSent: tally.sent,
      answers: tally.answers,
      creates: {
        requested: creates.length,
        created: creates.filter((create) => create.outcome === 'created').length,
        gaveUp: creates.filter((create) => create.outcome === 'gave_up').length,
        otherFinal: creates.filter((create) => typeof create.outcome === 'number').length,
      },
      reportsKept: load.records.reports.length,
      unreportedClaims: load.records.unreportedClaims,
      inboundAcknowledged: load.records.inbound.length,
      tasks: await taskFigures(databaseUrl, clientIds),
      kills: faults.filter((fault, index) => 'kill' in options.faults[index]! && fault.recoveredInMs !== null).length,
      restarts: faults.filter((fault, index) => 'restart' in options.faults[index]! && fault.recoveredInMs !== null).length,
      networkFaults: faults.filter((fault, index) => isNetworkFault(options.faults[index]!) && fault.recoveredInMs !== null).length,
      phoneFaults: faults.filter((fault, index) => 'hang' in options.faults[index]! && fault.recoveredInMs !== null).length,
      phones: { ...(await phoneFigures(databaseUrl, phoneSends)), unknownOutcomes: unknownOutcomes(stack) },
      quietCreateP50Ms,
      faults,
      violations,
    };
  } finally {
    ended = true;
    health?.stop();
    const logDir = options.logDir ?? (clean ? undefined : options.logDirOnFailure);
    if (stack && logDir) {
      saveLogs(stack, logDir);
      log(`the services' logs: ${logDir}`);
    }
    await proxy?.close().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    await links.close();
    await infra.stop();
  }
}

function upstreamOf(url: string): { host: string; port: number } {
  const { hostname, port } = new URL(url);
  return { host: hostname, port: Number(port) };
}

const CORE_PROCESSES: ProcessName[] = ['api-gateway', 'billing', 'dispatch', 'inbox', 'api-gateway#2', 'billing#2', 'dispatch#2', 'inbox#2', 'worker', 'worker#2'];

function runningPids(stack: Stack): Partial<Record<ProcessName, number>> {
  return Object.fromEntries(CORE_PROCESSES.map((name) => [name, stack.pidOf(name)]).filter(([, pid]) => pid !== undefined));
}

function servicePorts(stack: Stack, replicaPorts?: Record<CoreService, string>): string[] {
  return [...['PORT', 'BILLING_PORT', 'DISPATCH_PORT', 'INBOX_PORT'].map((name) => stack.env[name]!), ...Object.values(replicaPorts ?? {})];
}

/**
 * After a network fault's end: the first moment create-task's median over the answers of the last
 * 3 s is under twice its quiet value, within 30 s, and what it was then.
 */
async function createLatencyRecovery(tally: RequestTally, faultEnd: number, quietMs: number): Promise<Pick<FaultFigure, 'createP50BackInMs' | 'createP50AfterMs'>> {
  const windowMs = 3_000;
  for (let now = Date.now(); now - faultEnd <= NETWORK_RECOVERY_MS; now = Date.now()) {
    const median = medianMs(tally, 'create-task', 201, Math.max(faultEnd, now - windowMs), now);
    if (median !== null && median < 2 * quietMs) return { createP50BackInMs: now - faultEnd, createP50AfterMs: median };
    await sleep(250);
  }
  return { createP50BackInMs: null, createP50AfterMs: null };
}

/** Create-task's answers in each second after a fault's end, for a recovery that failed: how many, of which status, and the 201s' median. */
function createAnswersBySecond(tally: RequestTally, faultEnd: number): string {
  const lines: string[] = [];
  for (let second = 0; second < NETWORK_RECOVERY_MS / 1000; second++) {
    const from = faultEnd + second * 1000;
    const answers = (tally.timings['create-task'] ?? []).filter((timing) => timing.endedAt >= from && timing.endedAt < from + 1000);
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    const statuses = [...byStatus].map(([status, count]) => `${count}×${status}`).join(' ');
    lines.push(`  +${second} s: ${statuses || 'no answers'}, median of the 201s ${medianMs(tally, 'create-task', 201, from, from + 1000, 1) ?? '-'} ms`);
  }
  return lines.join('\n');
}

/**
 * Every service's /healthz, asked every second through the run: a 503 means the service could not
 * heal by itself and asks to be restarted, which a fault that time-outs can heal must never cause.
 */
class HealthWatch {
  private readonly failures: string[] = [];
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly ports: string[]) {
    this.timer = setInterval(() => void this.look(), 1_000);
  }

  static start(ports: string[]): HealthWatch {
    return new HealthWatch(ports);
  }

  stop(): string[] {
    clearInterval(this.timer);
    return this.failures;
  }

  private async look(): Promise<void> {
    for (const port of this.ports) {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
      if (response?.status === 503) this.failures.push(`:${port} /healthz answered 503 at ${new Date().toISOString()}: ${await response.text()}`);
    }
  }
}

/**
 * Clients with plenty of credits and one paired phone each, delivering themselves (the last of
 * them only the probe's, with `probe`); then the client of the real workers, with two phones (chaos-phones.ts).
 */
async function prepareClients(stack: Stack, count: number, baseUrl: string, probe: boolean): Promise<{ clients: ChaosClient[]; phones: ChaosPhones }> {
  const clients: ChaosClient[] = [];
  for (let index = 0; index < count + (probe ? 1 : 0); index++) {
    const { clientId, apiKey } = await stack.newClient({ phone: false });
    await stack.adminOk('credits', 'grant', '--client', String(clientId), '--amount', '100000');
    const paired = await registerPhone(stack, apiKey, { name: `chaos phone ${index}`, device_id: `chaos-${clientId}` });
    if (paired.status !== 201) throw new Error(`register-phone answered ${paired.status}: ${JSON.stringify(paired.body)}`);
    clients.push({ clientId, apiKey, phoneId: paired.body.phone_id, workerToken: paired.body.worker_token, deliversItself: true, probe: index === count });
  }
  const { clientId, apiKey } = await stack.newClient({ phone: false });
  await stack.adminOk('credits', 'grant', '--client', String(clientId), '--amount', '100000');
  const phones = await ChaosPhones.start(stack, apiKey, clientId, baseUrl);
  const first = phones.of('gateway-sim');
  clients.push({ clientId, apiKey, phoneId: first.phoneId, workerToken: '', deliversItself: false });
  return { clients, phones };
}

/** The dashboard, and with `two` a second copy on a port of its own (same secret, same Redis: a session works on either); answers their URLs. */
async function startDashboards(stack: Stack, two: boolean): Promise<string[]> {
  const urls = [await stack.startDashboard()];
  if (two) {
    const port = await freePort();
    stack.launch('dashboard#2', { DASHBOARD_PORT: String(port), DASHBOARD_SECRET: 'e2e-dashboard-secret-of-enough-length' });
    const url = `http://127.0.0.1:${port}`;
    await eventually(async () => {
      if (!(await fetch(`${url}/healthz`)).ok) throw new Error('not ready');
    }, { timeoutMs: 30_000, intervalMs: 100 });
    urls.push(url);
  }
  return urls;
}

/** The workers' `outcome unknown` lines: a send not reported either way, its task left to the lease. */
function unknownOutcomes(stack: Stack): number {
  return (['worker', 'worker#2'] as const).reduce((sum, worker) => sum + stack.logsOf(worker).filter((line) => line.includes('outcome unknown')).length, 0);
}

function saveLogs(stack: Stack, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const names: ProcessName[] = ['api-gateway', 'billing', 'dispatch', 'inbox', 'worker', 'gateway-sim', 'dashboard', 'api-gateway#2', 'billing#2', 'dispatch#2', 'inbox#2', 'worker#2', 'gateway-sim#2', 'dashboard#2'];
  for (const name of names) if (stack.logsOf(name).length > 0) writeFileSync(join(dir, `${name.replace('#', '-')}.log`), stack.logsOf(name).join('\n'));
}

/** Every service (and every second copy) answers /readyz with 200. */
async function allReady(stack: Stack, timeoutMs: number, replicaPorts?: Record<CoreService, string>): Promise<boolean> {
  const ports = servicePorts(stack, replicaPorts);
  return eventually(
    async () => {
      for (const port of ports) {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3_000) });
        if (!response.ok) throw new Error(`:${port} not ready`);
      }
    },
    { timeoutMs, intervalMs: 250 },
  ).then(
    () => true,
    () => false,
  );
}

/** Each 201 task as its client sees it through the public API: there, its own, with the message it sent. */
async function publicApiViolations(baseUrl: string, clients: ChaosClient[], creates: { clientId: number; createdIds: number[]; message: string }[], tally: RequestTally): Promise<Violation[]> {
  const violations: Violation[] = [];
  const keyOf = new Map(clients.map((client) => [client.clientId, client.apiKey]));
  const queue = creates.filter((create) => create.createdIds.length > 0);
  const lookUp = async () => {
    for (let create = queue.pop(); create; create = queue.pop()) {
      const id = create.createdIds[0]!;
      // A read that got no answer at all (the connection failed) is asked again, as a client
      // would; any answer the gateway gives is judged.
      let answer = await call(tally, 'get-task', baseUrl, 'GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': keyOf.get(create.clientId)! } });
      for (let retry = 1; answer.status === 0 && retry <= 3; retry++) answer = await call(tally, 'get-task', baseUrl, 'GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': keyOf.get(create.clientId)! } });
      if (answer.status !== 200 || answer.body?.message !== create.message) {
        violations.push({ invariant: 'answered-201-exists-once', clientId: create.clientId, detail: `GET /smsapi/tasks/${id} answered ${answer.status} ${JSON.stringify(answer.body)}` });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, lookUp));
  return violations;
}
