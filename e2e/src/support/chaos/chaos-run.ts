import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@smsq/testing';
import { PrivateInfra, type InfraName } from '../private-infra.js';
import { Stack, type CoreService, type ProcessName } from '../stack.js';
import { registerPhone } from '../worker-api.js';
import { call, RequestTally, sleep } from './chaos-http.js';
import { ClientLoad, type ChaosClient } from './client-load.js';
import { findViolations, taskFigures, unsettledWork, type Violation } from './invariants.js';
import { RoundRobinProxy } from './round-robin.js';

export type Fault = { kill: ProcessName } | { restart: InfraName };

/** Every process SIGKILLed and every backing service restarted, one after another. */
export const ALL_FAULTS: Fault[] = [
  { kill: 'api-gateway' },
  { kill: 'billing' },
  { kill: 'dispatch' },
  { kill: 'inbox' },
  { kill: 'worker' },
  { restart: 'redis' },
  { restart: 'postgres' },
  { restart: 'rabbitmq' },
];

/** With two of everything: every copy of every process SIGKILLed in turn (the other serving meanwhile), then the restarts. */
export const REPLICA_FAULTS: Fault[] = [
  { kill: 'api-gateway' },
  { kill: 'billing#2' },
  { kill: 'dispatch' },
  { kill: 'inbox#2' },
  { kill: 'worker' },
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
  /** Clients delivering through the driver's claim/report loop; one more is served by the real worker. */
  clients: number;
  /** Lease of a claim (SMSQ_CLAIM_TIMEOUT_S). */
  claimTimeoutS: number;
  /** Longest a service may take to be ready again after a fault before it counts as a violation. */
  recoveryTimeoutMs: number;
  log?: (line: string) => void;
  /** Where every service's log is written at the end, one file each. */
  logDir?: string;
  /**
   * Two of every service (two gateways behind a round-robin, two billing, two dispatch, two
   * inbox, two workers on one phone, two pollers on every other), every background job running twice.
   */
  replicas?: boolean;
}

export interface FaultFigure {
  fault: string;
  /** From the kill or restart until every service answered /readyz with 200 again. */
  recoveredInMs: number | null;
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
  faults: FaultFigure[];
  violations: Violation[];
}

const DATABASE = 'smsq_chaos';

function describeFault(fault: Fault): string {
  return 'kill' in fault ? `SIGKILL ${fault.kill}` : `restart ${fault.restart}`;
}

/**
 * The chaos run: private Postgres, RabbitMQ and Redis; the services, a real worker and the gateway
 * simulator on them; a steady mix of client and worker requests; the faults one after another;
 * then, once everything settled, the checks of the issue.
 */
export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const infra = await PrivateInfra.start();
  let stack: Stack | undefined;
  let proxy: RoundRobinProxy | undefined;
  try {
    log(`private infrastructure: ${infra.databaseServerUrl}, ${infra.amqpUrl}, ${infra.redisUrl}`);
    stack = await Stack.start({
      profile: 'A',
      env: {
        ...infra.envFor(DATABASE),
        SMSQ_CLAIM_TIMEOUT_S: String(options.claimTimeoutS),
        SMSQ_SETTLE_AFTER_S: '3',
        SMSQ_RATE_LIMIT_RPS: '10000',
        SMSQ_LOG_FORMAT: 'json',
      },
    });
    let replicaPorts: Record<CoreService, string> | undefined;
    if (options.replicas) {
      replicaPorts = await stack.launchReplicas();
      proxy = await RoundRobinProxy.start([stack.baseUrl, `http://127.0.0.1:${replicaPorts['api-gateway']}`]);
      if (!(await allReady(stack, 60_000, replicaPorts))) throw new Error(`the second copies did not become ready\n${stack.recentLogs()}`);
      log(`two of every service; the load goes through a round-robin at ${proxy.url}`);
    }
    const baseUrl = proxy?.url ?? stack.baseUrl;
    const clients = await prepareClients(stack, options.clients, baseUrl, options.replicas ? 2 : 1);
    const tally = new RequestTally();
    const load = new ClientLoad(baseUrl, clients, tally, { failShare: 0.25, abandonShare: 0.1, createRetryMs: 150_000, createConcurrency: 2, pauseMs: 40, deliveryLoops: options.replicas ? 2 : 1 });
    load.start();

    const faults: FaultFigure[] = [];
    const violations: Violation[] = [];
    await sleep(options.quietMs);
    for (const fault of options.faults) {
      const name = describeFault(fault);
      log(`${name}…`);
      const at = Date.now();
      if ('kill' in fault) {
        await stack.kill(fault.kill);
        // A supervisor restarts the killed process; nothing else is restarted by hand.
        await sleep(500);
        stack.launch(fault.kill);
      } else {
        await infra.restart(fault.restart);
      }
      const recovered = await allReady(stack, options.recoveryTimeoutMs, replicaPorts);
      const recoveredInMs = recovered ? Date.now() - at : null;
      faults.push({ fault: name, recoveredInMs });
      log(`${name}: ${recovered ? `ready again after ${recoveredInMs} ms` : 'NOT ready again'}`);
      if (!recovered) violations.push({ invariant: 'recovers-by-itself', clientId: null, detail: `${name}: not ready within ${options.recoveryTimeoutMs} ms\n${stack.recentLogs()}` });
      await sleep(options.quietMs);
    }

    log('stopping the load; waiting for the system to settle');
    await load.stopCreating();
    const clientIds = clients.map((client) => client.clientId);
    const databaseUrl = stack.env['DATABASE_URL']!;
    const settled = await eventually(async () => {
      const left = await unsettledWork(databaseUrl, clientIds);
      if (left.length > 0) throw new Error(`not settled: ${left.join(', ')}`);
    }, { timeoutMs: options.claimTimeoutS * 1000 * 4 + 90_000, intervalMs: 500 }).then(() => undefined, (error: Error) => error.message);
    await load.stopDelivering();
    if (settled) violations.push({ invariant: 'settles', clientId: null, detail: `${settled}\n${stack.recentLogs()}` });

    violations.push(...(await findViolations(databaseUrl, load.records, clientIds, 2_000)));
    violations.push(...(await publicApiViolations(baseUrl, clients, load.records.creates, tally)));
    const creates = load.records.creates;
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
      faults,
      violations,
    };
  } finally {
    if (stack && options.logDir) saveLogs(stack, options.logDir);
    await proxy?.close().catch(() => undefined);
    await stack?.stop().catch(() => undefined);
    await infra.stop();
  }
}

/** Clients with plenty of credits and one paired phone each; the last one is served by the real worker (`workers` of them). */
async function prepareClients(stack: Stack, count: number, baseUrl: string, workers: 1 | 2): Promise<ChaosClient[]> {
  const simUrl = await stack.startGatewaySim({ GATEWAY_SIM_FAILURE_RATE: '0.2' });
  const clients: ChaosClient[] = [];
  for (let index = 0; index <= count; index++) {
    const deliversItself = index < count;
    const { clientId, apiKey } = await stack.newClient({ phone: false });
    await stack.adminOk('credits', 'grant', '--client', String(clientId), '--amount', '100000');
    const paired = await registerPhone(stack, apiKey, { name: `chaos phone ${index}`, device_id: `chaos-${clientId}`, ...(deliversItself ? {} : { url: simUrl }) });
    if (paired.status !== 201) throw new Error(`register-phone answered ${paired.status}: ${JSON.stringify(paired.body)}`);
    clients.push({ clientId, apiKey, phoneId: paired.body.phone_id, workerToken: paired.body.worker_token, deliversItself });
  }
  const served = clients.find((client) => !client.deliversItself)!;
  stack.startWorker(served.workerToken, { WORKER_WAIT_S: '2', WORKER_CONCURRENCY: '2', SMSQ_BASE_URL: baseUrl });
  if (workers === 2) stack.startWorker(served.workerToken, { WORKER_WAIT_S: '2', WORKER_CONCURRENCY: '2', SMSQ_BASE_URL: baseUrl }, 'worker#2');
  return clients;
}

function saveLogs(stack: Stack, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const names: ProcessName[] = ['api-gateway', 'billing', 'dispatch', 'inbox', 'worker', 'gateway-sim', 'api-gateway#2', 'billing#2', 'dispatch#2', 'inbox#2', 'worker#2'];
  for (const name of names) if (stack.logsOf(name).length > 0) writeFileSync(join(dir, `${name.replace('#', '-')}.log`), stack.logsOf(name).join('\n'));
}

/** Every service (and every second copy) answers /readyz with 200. */
async function allReady(stack: Stack, timeoutMs: number, replicaPorts?: Record<CoreService, string>): Promise<boolean> {
  const ports = [...['PORT', 'BILLING_PORT', 'DISPATCH_PORT', 'INBOX_PORT'].map((name) => stack.env[name]), ...Object.values(replicaPorts ?? {})];
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
      const answer = await call(tally, 'get-task', baseUrl, 'GET', `/smsapi/tasks/${id}`, { headers: { 'x-api-key': keyOf.get(create.clientId)! } });
      if (answer.status !== 200 || answer.body?.message !== create.message) {
        violations.push({ invariant: 'answered-201-exists-once', clientId: create.clientId, detail: `GET /smsapi/tasks/${id} answered ${answer.status} ${JSON.stringify(answer.body)}` });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, lookUp));
  return violations;
}
