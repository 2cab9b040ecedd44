import { ClientProxyFactory } from '@nestjs/microservices';
import { runAdminCommand, type Services } from '@smsq/admin-commands';
import { rmqClientOptions, ServiceClient } from '@smsq/platform';
import { freePort } from '@smsq/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { cpuMsOf, residentMbOf } from './process-usage.js';

export type MeasuredService = 'api-gateway' | 'billing' | 'dispatch' | 'inbox';
export const MEASURED_SERVICES: MeasuredService[] = ['billing', 'dispatch', 'inbox', 'api-gateway'];

/** Polls `check` until it answers true; a check that throws an Error of its own (not a refused fetch) ends the wait at once. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await check().catch((error: Error) => {
      if (!(error instanceof TypeError)) throw error;
      return false;
    });
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface StackOptions {
  root: string;
  /** postgresql://user@host:port, without a database. */
  databaseServer: string;
  amqpUrl: string;
  redisUrl: string;
  /** When set, every service writes a V8 CPU profile into `<cpuProfileDir>/<service>` when it stops. */
  cpuProfileDir?: string;
  /** The four services in one process (scripts/one-process.mjs), as `npm start` runs them, instead of one each. */
  together?: boolean;
  /**
   * Also the SMPP service (scenario 6), in a process of its own beside the four; its memory and CPU
   * are not counted in theirs (`smppCpuMs` reads its CPU).
   */
  smpp?: boolean;
}

/** The label of the one process that runs the four services when they run together. */
const TOGETHER = 'together';

/**
 * The built services started as a user would start them (Profile B, rate limit off, no demo data),
 * under a database, broker namespace and ports of the bench's own, dropped again by `stop`.
 */
export class BenchStack {
  private readonly processes = new Map<string, ChildProcess>();
  /** Started beside the measured services, and not counted in their memory and CPU: the SMPP service. */
  private readonly extras = new Map<string, ChildProcess>();
  private readonly logTail = new Map<string, string[]>();
  private services: Services | undefined;
  private inboxClient: ServiceClient | undefined;
  private stopping: Promise<void> | undefined;
  readonly sql: pg.Pool;

  private constructor(
    private readonly options: StackOptions,
    readonly databaseName: string,
    readonly databaseUrl: string,
    readonly env: Record<string, string>,
    readonly baseUrl: string,
  ) {
    this.sql = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'smsq-bench' });
    // pg-pool's end() does not wait for its idle connections to close, so the drop's FORCE can end one
    // first; an idle connection's error must not crash the run (a query still reports its own).
    this.sql.on('error', () => undefined);
  }

  static async start(options: StackOptions): Promise<BenchStack> {
    const id = randomBytes(4).toString('hex');
    const databaseName = `smsq_bench_${id}`;
    const databaseUrl = `${options.databaseServer}/${databaseName}`;
    const port = await freePort();
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'production',
      SMSQ_PROFILE: 'B',
      SMSQ_DEMO: 'false',
      SMSQ_NAMESPACE: `bench_${id}`,
      DATABASE_URL: databaseUrl,
      AMQP_URL: options.amqpUrl,
      REDIS_URL: options.redisUrl,
      PORT: String(port),
      BILLING_PORT: String(await freePort()),
      DISPATCH_PORT: String(await freePort()),
      INBOX_PORT: String(await freePort()),
      SMPP_HTTP_PORT: String(await freePort()),
      SMSQ_SMPP_PORT: String(await freePort()),
      SMSQ_SMPP_HOST: '127.0.0.1',
      SMSQ_LOG_FORMAT: 'json',
      // Also the SMPP service's submits per credential.
      SMSQ_RATE_LIMIT_RPS: '0',
    };
    const stack = new BenchStack(options, databaseName, databaseUrl, env, `http://127.0.0.1:${port}`);
    if (options.together) stack.launch(TOGETHER, [join(options.root, 'scripts', 'one-process.mjs'), ...MEASURED_SERVICES]);
    else for (const service of MEASURED_SERVICES) stack.launch(service, [join(options.root, 'apps', service, 'dist', `smsq-${service}.mjs`)]);
    if (options.smpp) stack.launch('smpp', [join(options.root, 'apps', 'smpp', 'dist', 'smsq-smpp.mjs')], stack.extras);
    try {
      await until(
        async () => {
          const stopped = [...stack.processes, ...stack.extras].find(([, child]) => child.exitCode !== null || child.signalCode !== null);
          if (stopped) throw new Error(`${stopped[0]} stopped before it was ready`);
          if (options.smpp && !(await fetch(`http://127.0.0.1:${env['SMPP_HTTP_PORT']}/readyz`)).ok) return false;
          return (await fetch(`${stack.baseUrl}/readyz`)).ok;
        },
        90_000,
        'every service becoming ready',
      );
    } catch (error) {
      process.stderr.write(stack.recentLogs());
      await stack.stop();
      throw error;
    }
    return stack;
  }

  /** Where SMPP clients bind, when the stack was started with the SMPP service. */
  get smppAddress(): { host: string; port: number } {
    if (!this.extras.has('smpp')) throw new Error('the bench stack was started without the SMPP service');
    return { host: this.env['SMSQ_SMPP_HOST']!, port: Number(this.env['SMSQ_SMPP_PORT']) };
  }

  private launch(service: string, args: string[], into = this.processes): void {
    const profiling = this.options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(this.options.cpuProfileDir, service)}`] : [];
    const child = spawn(process.execPath, [...profiling, ...args], {
      cwd: this.options.root,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    this.logTail.set(service, tail);
    const keep = (chunk: Buffer) => {
      tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (tail.length > 200) tail.splice(0, tail.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    into.set(service, child);
  }

  recentLogs(lines = 15): string {
    return [...this.logTail].map(([service, tail]) => `--- ${service}\n${tail.slice(-lines).join('\n')}\n`).join('');
  }

  /** Resident memory of all the services' processes together now, in MB. */
  totalResidentMb(): number {
    return [...this.processes.values()].reduce((sum, child) => sum + residentMbOf(child.pid!), 0);
  }

  /** CPU time all the services' processes have used so far, in ms. */
  totalCpuMs(): number {
    return [...this.processes.values()].reduce((sum, child) => sum + cpuMsOf(child.pid!), 0);
  }

  /** Resident memory of each service now, in MB (from /proc, as the OOM killer counts it); for services that run apart. */
  residentMb(): Record<MeasuredService, number> {
    const sizes = {} as Record<MeasuredService, number>;
    for (const [service, child] of this.processes) sizes[service as MeasuredService] = residentMbOf(child.pid!);
    return sizes;
  }

  /**
   * CPU time each service has used so far, in ms (user + system, from /proc). Differences of it per
   * request hold on a busy machine, where throughput and latency do not.
   */
  cpuMs(): Record<MeasuredService, number> {
    const used = {} as Record<MeasuredService, number>;
    for (const [service, child] of this.processes) used[service as MeasuredService] = cpuMsOf(child.pid!);
    return used;
  }

  /** CPU time the SMPP service has used so far, in ms (0 when the stack runs without it). */
  smppCpuMs(): number {
    const child = this.extras.get('smpp');
    return child ? cpuMsOf(child.pid!) : 0;
  }

  private serviceClients(): Services {
    if (!this.services) {
      const broker = { amqpUrl: this.env['AMQP_URL']!, namespace: this.env['SMSQ_NAMESPACE']! };
      const connect = (service: 'gateway' | 'billing' | 'dispatch' | 'dashboard') =>
        new ServiceClient(service, ClientProxyFactory.create(rmqClientOptions(broker, service)), 30_000);
      this.services = { gateway: connect('gateway'), billing: connect('billing'), dispatch: connect('dispatch'), dashboard: connect('dashboard') };
    }
    return this.services;
  }

  /** Dispatch and inbox over the broker, as the dashboard reaches them (scenario 5). */
  conversationClients(): { dispatch: ServiceClient; inbox: ServiceClient } {
    if (!this.inboxClient) {
      const broker = { amqpUrl: this.env['AMQP_URL']!, namespace: this.env['SMSQ_NAMESPACE']! };
      this.inboxClient = new ServiceClient('inbox', ClientProxyFactory.create(rmqClientOptions(broker, 'inbox')), 30_000);
    }
    return { dispatch: this.serviceClients().dispatch, inbox: this.inboxClient };
  }

  /** An admin command (DESIGN §5), run in this process over the broker with the command line's own code. */
  async admin<T extends object>(...args: string[]): Promise<T> {
    return (await runAdminCommand(args, this.serviceClients())) as T;
  }

  /** Stops the services and drops the database; a second call waits for the first. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAndDrop();
    return this.stopping;
  }

  private async stopAndDrop(): Promise<void> {
    if (this.services) await Promise.allSettled(Object.values(this.services).map((client: ServiceClient) => client.close()));
    await this.inboxClient?.close().catch(() => undefined);
    await Promise.all(
      [...this.processes.values(), ...this.extras.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const stubborn = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited;
        clearTimeout(stubborn);
      }),
    );
    await this.sql.end();
    const admin = new pg.Client({ connectionString: `${this.options.databaseServer}/postgres` });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${this.databaseName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
}
