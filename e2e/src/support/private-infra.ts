import { eventually, freePort, isRunning, until } from '@smsq/testing';
import amqplib from 'amqplib';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const IS_ROOT = process.getuid?.() === 0;

export type InfraName = 'postgres' | 'rabbitmq' | 'redis';

/**
 * Postgres, RabbitMQ and Redis of this process alone, on free ports in a temporary directory, so
 * a test can crash and restart them for real without touching the machine's shared instances.
 * Restarts keep the data directories (Postgres' data and RabbitMQ's durable queues survive);
 * Redis runs without persistence, so its restart loses every key, as it does in production here.
 */
export class PrivateInfra {
  private redisProcess: ChildProcess | undefined;
  private stopped = false;

  private constructor(
    private readonly dir: string,
    private readonly ports: { postgres: number; amqp: number; amqpDist: number; redis: number },
    private readonly rabbitNode: string,
    private readonly postgresSharedBuffers: string,
    /** The servers this instance runs; a stack on it uses the machine's shared ones for the rest, under its own namespace. */
    readonly servers: readonly InfraName[],
  ) {}

  get databaseServerUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.ports.postgres}`;
  }

  get amqpUrl(): string {
    return `amqp://guest:guest@127.0.0.1:${this.ports.amqp}`;
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.ports.redis}`;
  }

  /** DATABASE_URL, AMQP_URL and REDIS_URL (of the servers it runs) for services of one stack pointed at these instances. */
  envFor(databaseName: string): Record<string, string> {
    const urls = { postgres: ['DATABASE_URL', `${this.databaseServerUrl}/${databaseName}`], rabbitmq: ['AMQP_URL', this.amqpUrl], redis: ['REDIS_URL', this.redisUrl] } as const;
    return Object.fromEntries(this.servers.map((server) => urls[server]));
  }

  /**
   * `postgresSharedBuffers`: 32 MB by default, so that the short chaos runs and the other suites'
   * servers starting beside them stay small; the soak, whose tables grow for half an hour, runs
   * Postgres's own default (128 MB), as deploy/ does. `servers`: all three unless named (a
   * RabbitMQ node alone takes several seconds of CPU to boot).
   */
  static async start(options: { postgresSharedBuffers?: string; servers?: InfraName[] } = {}): Promise<PrivateInfra> {
    const dir = mkdtempSync(join(tmpdir(), 'smsq-infra-'));
    // The database and broker run as their own OS users, which must reach their folders inside.
    chmodSync(dir, 0o755);
    const ports = { postgres: await freePort(), amqp: await freePort(), amqpDist: await freePort(), redis: await freePort() };
    const servers = options.servers ?? ['postgres', 'rabbitmq', 'redis'];
    const infra = new PrivateInfra(dir, ports, `smsq_chaos_${randomBytes(3).toString('hex')}@localhost`, options.postgresSharedBuffers ?? '32MB', servers);
    const starts = { postgres: () => infra.initPostgres().then(() => infra.startPostgresOnAFreePort()), rabbitmq: () => infra.startRabbit(), redis: () => infra.startRedis() };
    try {
      await Promise.all(servers.map((server) => starts[server]()));
    } catch (error) {
      await infra.stop();
      throw error;
    }
    return infra;
  }

  /** A crash restart: Postgres stopped without a checkpoint, RabbitMQ's node stopped, Redis killed. */
  async restart(name: InfraName): Promise<void> {
    if (name === 'postgres') {
      await this.asOwner('postgres', this.pgBin('pg_ctl'), ['-D', this.pgData, '-m', 'immediate', '-w', 'stop']);
      await this.startPostgres();
    } else if (name === 'rabbitmq') {
      await this.stopRabbit();
      await this.startRabbit();
    } else {
      await this.killRedis();
      await this.startRedis();
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.allSettled([
      this.servers.includes('postgres') ? this.asOwner('postgres', this.pgBin('pg_ctl'), ['-D', this.pgData, '-m', 'immediate', '-w', 'stop']) : undefined,
      this.servers.includes('rabbitmq') ? this.stopRabbit() : undefined,
      this.killRedis(),
    ]);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private get pgData(): string {
    return join(this.dir, 'pg');
  }

  private pgBin(tool: string): string {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
    return join('/usr/lib/postgresql', versions[0]!, 'bin', tool);
  }

  /** initdb and pg_ctl refuse root; RabbitMQ's node runs as its own user too. */
  private asOwner(user: 'postgres' | 'rabbitmq', file: string, args: string[], env: Record<string, string> = {}) {
    const fullEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env };
    if (!IS_ROOT) return run(file, args, { env: { ...process.env, ...fullEnv }, cwd: this.dir, maxBuffer: 16 * 1024 * 1024 });
    return run('runuser', ['-u', user, '--', 'env', ...Object.entries(fullEnv).map(([key, value]) => `${key}=${value}`), file, ...args], { cwd: this.dir, maxBuffer: 16 * 1024 * 1024 });
  }

  private ownedBy(user: 'postgres' | 'rabbitmq', path: string): void {
    mkdirSync(path, { recursive: true });
    if (!IS_ROOT) return;
    const ids = user === 'postgres' ? idsOf('postgres') : idsOf('rabbitmq');
    chownSync(path, ids.uid, ids.gid);
  }

  private async initPostgres(): Promise<void> {
    this.ownedBy('postgres', this.pgData);
    this.ownedBy('postgres', join(this.dir, 'pg-socket'));
    await this.asOwner('postgres', this.pgBin('initdb'), ['-D', this.pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  }

  /**
   * The first start: a port found free can be taken by another suite's process before Postgres
   * binds it, so a start that could not bind tries another port. Any other failure is thrown with
   * the end of the server's log, which `stop` deletes with the folder.
   */
  private async startPostgresOnAFreePort(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startPostgres();
      } catch (error) {
        let log = '';
        try {
          log = readFileSync(join(this.pgData, 'server.log'), 'utf8').split('\n').slice(-20).join('\n');
        } catch {
          // no log written
        }
        if (attempt < 3 && /could not bind|Address already in use/i.test(log)) {
          this.ports.postgres = await freePort();
          continue;
        }
        throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver.log:\n${log}`);
      }
    }
  }

  private async startPostgres(): Promise<void> {
    const options = [
      `-p ${this.ports.postgres}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${join(this.dir, 'pg-socket')}`,
      `-c shared_buffers=${this.postgresSharedBuffers}`,
      '-c max_connections=200',
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ');
    await this.asOwner('postgres', this.pgBin('pg_ctl'), ['-D', this.pgData, '-l', join(this.pgData, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  }

  private rabbitEnv(): Record<string, string> {
    return {
      HOME: '/var/lib/rabbitmq',
      RABBITMQ_NODENAME: this.rabbitNode,
      RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
      RABBITMQ_NODE_PORT: String(this.ports.amqp),
      RABBITMQ_DIST_PORT: String(this.ports.amqpDist),
      RABBITMQ_MNESIA_BASE: join(this.dir, 'rabbit', 'mnesia'),
      RABBITMQ_LOG_BASE: join(this.dir, 'rabbit', 'log'),
      RABBITMQ_PID_FILE: join(this.dir, 'rabbit', 'node.pid'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(this.dir, 'rabbit', 'enabled_plugins'),
      RABBITMQ_CONFIG_FILE: join(this.dir, 'rabbit', 'rabbitmq'),
      // Erlang's schedulers spin while they wait for work by default, which on two cores takes CPU
      // from everything running beside a chaos run.
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '+sbwt none +sbwtdcpu none +sbwtdio none',
    };
  }

  private async startRabbit(): Promise<void> {
    const base = join(this.dir, 'rabbit');
    this.ownedBy('rabbitmq', base);
    writeFileSync(join(base, 'enabled_plugins'), '[].\n');
    // guest may connect over 127.0.0.1 only, which is all the services use.
    writeFileSync(join(base, 'rabbitmq.conf'), 'loopback_users.guest = true\n');
    await this.asOwner('rabbitmq', '/usr/lib/rabbitmq/bin/rabbitmq-server', ['-detached'], this.rabbitEnv());
    // The node opens its AMQP listener last as it boots: a connection and a channel mean it is up.
    // (rabbitmqctl would boot an Erlang VM of its own for each look, about a second of CPU.)
    await eventually(
      async () => {
        const connection = await amqplib.connect(this.amqpUrl);
        connection.on('error', () => undefined);
        try {
          await connection.createChannel();
        } finally {
          await connection.close().catch(() => undefined);
        }
      },
      { timeoutMs: 90_000, intervalMs: 250 },
    );
  }

  /** The node stopped as its service manager stops it (SIGTERM: a clean shutdown), once it is gone. */
  private async stopRabbit(): Promise<void> {
    let pid: number;
    try {
      pid = Number(readFileSync(join(this.dir, 'rabbit', 'node.pid'), 'utf8').trim());
      process.kill(pid, 'SIGTERM');
    } catch {
      return;
    }
    await until(() => !isRunning(pid), { timeoutMs: 60_000, intervalMs: 100 });
  }

  private async startRedis(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir], { stdio: 'ignore' });
    this.redisProcess = child;
    await eventually(() => portAnswers(this.ports.redis), { timeoutMs: 20_000, intervalMs: 100 });
  }

  private async killRedis(): Promise<void> {
    const child = this.redisProcess;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

function idsOf(user: string): { uid: number; gid: number } {
  const line = readPasswd().find((entry) => entry.startsWith(`${user}:`));
  if (!line) throw new Error(`no OS user ${user}`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function readPasswd(): string[] {
  return readFileSync('/etc/passwd', 'utf8').split('\n');
}

function portAnswers(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}
