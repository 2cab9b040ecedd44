import { ClientProxyFactory } from '@nestjs/microservices';
import { runAdminCommand, type Services } from '@smsq/admin-commands';
import { createSmsqClient, type SmsqClient } from '@smsq/client';
import { domainErrorFrom } from '@smsq/contracts';
import { deadLetterQueueName, queueName, rmqClientOptions, ServiceClient } from '@smsq/platform';
import amqplib from 'amqplib';
import { dropDatabase, eventually, freePort, TEST_SERVER_URL } from '@smsq/testing';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { assertAnswerMatchesDocument, bodyOf, documentCheckedFetch } from './api-document.js';
import { majorGcOf, type MajorGc } from './major-gc.js';

const run = promisify(execFile);
/** The repository's root folder. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `services`: the four core services in one process (scripts/one-process.mjs), as `npm start` runs them. */
export type ServiceName = 'api-gateway' | 'billing' | 'dispatch' | 'inbox' | 'smpp' | 'worker' | 'gateway-sim' | 'dashboard' | 'services';
/** A service's process, or a further copy (`billing#2`, `gateway-sim#3`) where several run side by side. */
export type ProcessName = ServiceName | `${ServiceName}#${number}`;
const SERVICES: ServiceName[] = ['billing', 'dispatch', 'inbox', 'api-gateway'];
/** The variable each core service reads its HTTP port from. */
const PORT_VARIABLES = { billing: 'BILLING_PORT', dispatch: 'DISPATCH_PORT', inbox: 'INBOX_PORT', 'api-gateway': 'PORT' } as const;
export type CoreService = keyof typeof PORT_VARIABLES;
const serviceOf = (name: ProcessName): ServiceName => name.split('#')[0] as ServiceName;
/**
 * Node's flags when a test asks for none. V8 compiles Prisma's query compiler (WebAssembly) a
 * second time with its optimising tier as a service starts, about 1 s of CPU per process that a
 * short-lived test stack never earns back (Prisma caches its query plans): four processes took
 * 9.7 s of CPU to answer /readyz, 5.7 s without it. The code runs the same; the soak, which judges
 * memory and CPU as production would see them, names its own flags.
 */
const TEST_NODE_FLAGS = ['--liftoff-only'];
/** An app as its build leaves it for users to run: one file, `apps/<app>/dist/smsq-<app>.mjs` (rolldown.service.mjs). */
export const appFile = (app: string): string => join(ROOT, 'apps', app, 'dist', `smsq-${app}.mjs`);
/** The reference worker as users get it: one bundled file. */
export const WORKER_FILE = appFile('worker');
/** What runs a service that is not simply its app's one file. */
const ENTRIES: Partial<Record<ServiceName, string[]>> = {
  worker: [WORKER_FILE, 'run'],
  services: [join(ROOT, 'scripts', 'one-process.mjs'), ...SERVICES],
};

function expect200(response: Response): void {
  if (!response.ok) throw new Error(`answered ${response.status}`);
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** A typed client's answer as the tests read answers: the status, the headers and whichever body came. */
export function answerOf(result: { data?: unknown; error?: unknown; response: Response }): HttpAnswer {
  return { status: result.response.status, headers: result.response.headers, body: result.data ?? result.error };
}

/**
 * The built services started as a user would start them, against the real Postgres, RabbitMQ and
 * Redis, under a database, broker namespace and ports of their own.
 */
export class Stack {
  private readonly processes = new Map<ProcessName, ChildProcess>();
  private readonly logs = new Map<ProcessName, string[]>();
  private services: (Services & { inbox: ServiceClient }) | undefined;
  /** Environment a process was launched with beyond the stack's, kept for its restarts. */
  private readonly extraEnv = new Map<ProcessName, Record<string, string>>();
  /** Where each process's lines of its latest launch begin in its log (a relaunch keeps the lines before). */
  private readonly launchedAtLine = new Map<ProcessName, number>();

  /** Every major garbage collection a process traced (`--trace-gc` among `nodeFlags`), in order. */
  private readonly majorGcs = new Map<ProcessName, MajorGc[]>();
  /** Whether `stop` also drops the stack's database and queues: not on a stack another process started (`attach`). */
  private owned = true;

  private constructor(
    readonly env: Record<string, string>,
    readonly baseUrl: string,
    private readonly databaseName: string,
    /** Node's own flags for every process the stack launches (the soak traces garbage collection). */
    private readonly nodeFlags: string[],
  ) {}

  static async start(options: { profile: 'A' | 'B'; env?: Record<string, string>; oneProcess?: boolean; nodeFlags?: string[] }): Promise<Stack> {
    const id = randomBytes(4).toString('hex');
    const databaseName = `smsq_e2e_${options.profile.toLowerCase()}_${id}`;
    const port = await freePort();
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      SMSQ_PROFILE: options.profile,
      SMSQ_DEMO: 'false',
      SMSQ_NAMESPACE: `e2e_${id}`,
      DATABASE_URL: `${TEST_SERVER_URL}/${databaseName}`,
      PORT: String(port),
      BILLING_PORT: String(await freePort()),
      DISPATCH_PORT: String(await freePort()),
      INBOX_PORT: String(await freePort()),
      // The SMPP service is launched by the tests that speak SMPP (stack.launch('smpp')).
      SMPP_HTTP_PORT: String(await freePort()),
      SMSQ_SMPP_PORT: String(await freePort()),
      GATEWAY_SIM_PORT: String(await freePort()),
      SMSQ_LOG_FORMAT: 'json',
      // The isolation spec reads the routes each app mapped from its start-up lines.
      SMSQ_LOG_LEVEL: 'debug',
      SMSQ_RATE_LIMIT_RPS: '0',
      // bcrypt's cheapest: the tests sign in and out often, and check what a password opens, not how slowly it is hashed.
      DASHBOARD_PASSWORD_COST: '4',
      ...options.env,
    };
    env['SMSQ_BASE_URL'] = `http://127.0.0.1:${port}`;
    const stack = new Stack(env, env['SMSQ_BASE_URL'], databaseName, options.nodeFlags ?? TEST_NODE_FLAGS);
    if (options.oneProcess) stack.launch('services');
    else for (const service of SERVICES) stack.launch(service);
    // Two minutes, within a set-up's three (e2e/vitest.config.ts): a stack starting beside a chaos
    // run on a slow machine gets a fraction of a core.
    await stack.waitUntilReady(120_000);
    return stack;
  }

  /**
   * A handle on a stack that another process started and stops (shared-stack.ts): its API, admin
   * commands and database, with no process of its own until it launches one.
   */
  static attach(env: Record<string, string>): Stack {
    const stack = new Stack(env, env['SMSQ_BASE_URL']!, new URL(env['DATABASE_URL']!).pathname.slice(1), TEST_NODE_FLAGS);
    stack.owned = false;
    return stack;
  }

  launch(service: ProcessName, extraEnv: Record<string, string> = {}): void {
    const env = { ...this.env, ...(this.extraEnv.get(service) ?? {}), ...extraEnv };
    this.extraEnv.set(service, { ...(this.extraEnv.get(service) ?? {}), ...extraEnv });
    const entry = ENTRIES[serviceOf(service)] ?? [appFile(serviceOf(service))];
    const child = spawn(process.execPath, [...this.nodeFlags, ...entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines = this.logs.get(service) ?? [];
    this.logs.set(service, lines);
    this.launchedAtLine.set(service, lines.length);
    const gcs = this.majorGcs.get(service) ?? [];
    this.majorGcs.set(service, gcs);
    const traced = this.nodeFlags.includes('--trace-gc');
    const keep = (chunk: Buffer) => {
      const received = chunk.toString('utf8').split('\n').filter(Boolean);
      lines.push(...received);
      if (!traced) return;
      for (const line of received) {
        const gc = majorGcOf(line);
        if (gc) gcs.push(gc);
      }
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.processes.set(service, child);
  }

  /** A real process kill, as a crash or the OOM killer would do it. */
  async kill(service: ProcessName, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.processes.get(service);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const stubborn = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(stubborn);
    this.processes.delete(service);
  }

  /**
   * A second copy of every core service beside the first, each on HTTP ports of its own, sharing
   * the database, broker namespace and Redis; answers the ports by service (the gateway's under `api-gateway`).
   */
  async launchReplicas(): Promise<Record<CoreService, string>> {
    const ports = {} as Record<CoreService, string>;
    for (const [service, variable] of Object.entries(PORT_VARIABLES) as Array<[CoreService, string]>) {
      ports[service] = String(await freePort());
      this.launch(`${service}#2`, { [variable]: ports[service] });
    }
    return ports;
  }

  async restart(service: ServiceName): Promise<void> {
    await this.kill(service);
    this.launch(service);
    await this.waitUntilReady();
  }

  /** The gateway stand-in, answering on its own port; its base URL is what phones and gateways register. */
  async startGatewaySim(env: Record<string, string> = {}): Promise<string> {
    this.launch('gateway-sim', env);
    const url = `http://127.0.0.1:${this.env['GATEWAY_SIM_PORT']}`;
    await this.waitForHealth('gateway-sim', url);
    return url;
  }

  /**
   * The SMPP service (`smpp`, or a replica `smpp#2` with ports of its own), with `env` beyond the
   * stack's; answers the port SMPP clients bind to.
   */
  async startSmpp(name: 'smpp' | `smpp#${number}` = 'smpp', env: Record<string, string> = {}): Promise<number> {
    // A replica started again keeps its ports, so its clients find it where they bound before.
    const earlier = this.extraEnv.get(name);
    const ports =
      name === 'smpp'
        ? { SMPP_HTTP_PORT: this.env['SMPP_HTTP_PORT']!, SMSQ_SMPP_PORT: this.env['SMSQ_SMPP_PORT']! }
        : { SMPP_HTTP_PORT: env['SMPP_HTTP_PORT'] ?? earlier?.['SMPP_HTTP_PORT'] ?? String(await freePort()), SMSQ_SMPP_PORT: env['SMSQ_SMPP_PORT'] ?? earlier?.['SMSQ_SMPP_PORT'] ?? String(await freePort()) };
    this.launch(name, { ...env, ...ports });
    await this.waitForHealth(name, `http://127.0.0.1:${ports.SMPP_HTTP_PORT}`);
    return Number(ports.SMSQ_SMPP_PORT);
  }

  /** The dashboard (web UI and its back end) on a port of its own, with `env` beyond the stack's (e.g. SMTP); answers its base URL. */
  async startDashboard(env: Record<string, string> = {}): Promise<string> {
    const port = await freePort();
    this.launch('dashboard', { DASHBOARD_PORT: String(port), DASHBOARD_SECRET: 'e2e-dashboard-secret-of-enough-length', ...env });
    const url = `http://127.0.0.1:${port}`;
    await this.waitForHealth('dashboard', url);
    return url;
  }

  /** The reference worker with a token (or, with `WORKER_TOKEN: ''`, the phone paired in `WORKER_STATE_DIR`); its state in a folder of its own. */
  startWorker(workerToken: string, env: Record<string, string> = {}, name: 'worker' | `worker#${number}` = 'worker'): void {
    this.launch(name, { WORKER_TOKEN: workerToken, WORKER_WAIT_S: '5', WORKER_STATE_DIR: mkdtempSync(join(tmpdir(), 'smsq-worker-')), ...env });
  }

  /** The process id of a running service, to tell a service that stayed up from one that was restarted. */
  pidOf(service: ProcessName): number | undefined {
    const child = this.processes.get(service);
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  /** The running process of a service, for tests that signal it and watch it exit. */
  processOf(service: ProcessName): ChildProcess | undefined {
    return this.processes.get(service);
  }

  /** The major garbage collections the process has traced, with the heap each left (only with `--trace-gc` among the stack's `nodeFlags`). */
  majorGcsOf(service: ProcessName): MajorGc[] {
    return this.majorGcs.get(service) ?? [];
  }

  logsOf(service: ProcessName): string[] {
    return this.logs.get(service) ?? [];
  }

  /**
   * Waits until the gateway answers /readyz with 200, which needs every service to answer. Shorter
   * than a test's 60 s, so that a stack that never gets ready fails with its services' last lines.
   */
  async waitUntilReady(timeoutMs = 50_000): Promise<void> {
    // Another file's process may take the gateway's port between freePort() and this stack's
    // gateway starting (in one process it starts last), and answer /readyz in its place: the port
    // counts as this stack's once one of its own processes logged, since its latest launch, that it listens there.
    const listening = `listening on :${new URL(this.baseUrl).port} `;
    const listens = () => [...this.logs].some(([service, lines]) => lines.slice(this.launchedAtLine.get(service) ?? 0).some((line) => line.includes(listening)));
    await eventually(
      async () => {
        if (!listens()) throw new Error('the gateway does not listen yet');
        const response = await fetch(`${this.baseUrl}/readyz`);
        if (!response.ok) throw new Error(`gateway not ready: ${await response.text()}`);
      },
      { timeoutMs, intervalMs: 200 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${this.recentLogs()}`);
    });
  }

  /** Until the process answers its /healthz (within a test's 60 s); a process that does not says why in the error, with its last lines. */
  private async waitForHealth(service: ProcessName, url: string): Promise<void> {
    await eventually(async () => expect200(await fetch(`${url}/healthz`)), { timeoutMs: 45_000, intervalMs: 100 }).catch((error: Error) => {
      throw new Error(`${service} did not answer /healthz: ${error.message}\n--- ${service}\n${this.logsOf(service).slice(-30).join('\n')}`);
    });
  }

  recentLogs(): string {
    return [...this.logs].map(([service, lines]) => `--- ${service}\n${lines.slice(-15).join('\n')}`).join('\n');
  }

  async http(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}): Promise<HttpAnswer> {
    const hasBody = options.body !== undefined || options.rawBody !== undefined;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    const body = bodyOf(text);
    assertAnswerMatchesDocument(method, path, response.status, response.headers, body);
    return { status: response.status, headers: response.headers, body };
  }

  /** The typed client (`@smsq/client`) as an integrator uses it, its answers held against the document too. */
  client(credential: { apiKey: string } | { workerToken: string }): SmsqClient {
    return createSmsqClient({ baseUrl: this.baseUrl, ...credential, fetch: documentCheckedFetch });
  }

  /** create-task through the typed client; `body` may be anything, to see what the gateway makes of it. */
  async createTask(apiKey: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    return answerOf(await this.client({ apiKey }).POST('/smsapi/create-task', { body: body as never, headers }));
  }

  /** Clients of the stack's services over its own broker namespace, as the admin command line makes them. */
  serviceClients(): Services & { inbox: ServiceClient } {
    if (!this.services) {
      const broker = { amqpUrl: this.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672', namespace: this.env['SMSQ_NAMESPACE']!, queueType: this.env['SMSQ_QUEUE_TYPE'] === 'quorum' ? ('quorum' as const) : ('classic' as const) };
      const connect = (service: 'gateway' | 'billing' | 'dispatch' | 'inbox' | 'dashboard') => new ServiceClient(service, ClientProxyFactory.create(rmqClientOptions(broker, service)), 5_000);
      this.services = { gateway: connect('gateway'), billing: connect('billing'), dispatch: connect('dispatch'), inbox: connect('inbox'), dashboard: connect('dashboard') };
    }
    return this.services;
  }

  /** An admin command, run in this process over the broker (the command line's own code, without its start-up time). */
  async admin(...args: string[]): Promise<{ exitCode: number; output: any }> {
    try {
      return { exitCode: 0, output: await runAdminCommand(args, this.serviceClients()) };
    } catch (error) {
      const domainError = domainErrorFrom(error);
      if (!domainError) throw error;
      return { exitCode: 1, output: domainError.toBody() };
    }
  }

  /** The admin command's output, failing the test when the command fails. */
  async adminOk(...args: string[]): Promise<any> {
    const { exitCode, output } = await this.admin(...args);
    if (exitCode !== 0) throw new Error(`admin ${args.join(' ')} failed: ${JSON.stringify(output)}`);
    return output;
  }

  /**
   * A set-up step's admin command, asked again (up to three times) when the answer is `unavailable`
   * ("retry later"), as a user would: on a start-up with other suites' stacks starting beside it, a
   * first request can outlast the 5 s timeout. Only for steps whose double does no harm (a second
   * client or key nobody uses).
   */
  private async adminSetUp(...args: string[]): Promise<any> {
    for (let attempt = 1; ; attempt++) {
      const { exitCode, output } = await this.admin(...args);
      if (exitCode === 0) return output;
      if (output?.error !== 'unavailable' || attempt === 3) throw new Error(`admin ${args.join(' ')} failed: ${JSON.stringify(output)}`);
    }
  }

  /** The real admin command line as a user runs it: a process printing one JSON object. */
  async cli(...args: string[]): Promise<{ exitCode: number; output: any; stdout: string }> {
    try {
      const { stdout } = await run(process.execPath, [appFile('admin'), ...args], { cwd: ROOT, env: this.env });
      return { exitCode: 0, output: JSON.parse(stdout), stdout };
    } catch (error) {
      const failure = error as { code?: number; stdout?: string };
      return { exitCode: failure.code ?? 1, output: failure.stdout ? JSON.parse(failure.stdout) : undefined, stdout: failure.stdout ?? '' };
    }
  }

  /** A client with a key (and, in Profile A, a phone), ready to queue. */
  async newClient(options: { plan?: string; phone?: boolean; timezone?: string } = {}): Promise<{ clientId: number; apiKey: string; keyId: number; phoneId?: number }> {
    const flags = ['--name', `client-${randomBytes(3).toString('hex')}`];
    if (options.plan) flags.push('--plan', options.plan);
    if (options.timezone) flags.push('--timezone', options.timezone);
    const { client_id: clientId } = await this.adminSetUp('client', 'create', ...flags);
    const { api_key: apiKey, key_id: keyId } = await this.adminSetUp('key', 'create', '--client', String(clientId));
    let phoneId: number | undefined;
    if (options.phone ?? this.env['SMSQ_PROFILE'] === 'A') {
      ({ phone_id: phoneId } = await this.adminOk('phone', 'register', '--client', String(clientId), '--name', 'test phone'));
    }
    return { clientId, apiKey, keyId, phoneId };
  }

  async credits(clientId: number): Promise<number> {
    const shown = await this.adminOk('client', 'show', '--client', String(clientId));
    return shown.credits_remaining as number;
  }

  /** The stack's queues (and their dead-letter queues) are its own: they go with it. */
  private async deleteBrokerQueues(): Promise<void> {
    const connection = await amqplib.connect(this.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672');
    try {
      const channel = await connection.createChannel();
      for (const service of ['gateway', 'billing', 'dispatch', 'inbox', 'dashboard'] as const) {
        await channel.deleteQueue(queueName(this.env['SMSQ_NAMESPACE']!, service));
        await channel.deleteQueue(deadLetterQueueName(this.env['SMSQ_NAMESPACE']!, service));
      }
    } finally {
      await connection.close();
    }
  }

  async stop(): Promise<void> {
    if (this.services) await Promise.allSettled(Object.values(this.services).map((client: ServiceClient) => client.close()));
    await Promise.all([...this.processes.keys()].map((service) => this.kill(service, 'SIGTERM')));
    if (!this.owned) return;
    await this.deleteBrokerQueues();
    await dropDatabase(this.databaseName);
  }
}
