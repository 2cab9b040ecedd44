// The servers smsq needs (PostgreSQL, RabbitMQ, Redis), checked before `npm start` and `npm test`
// do anything else: each at its configured address, with a real login and a short time-out, one
// line each. A local one that is installed here but stopped is started (where this user may), and
// a missing one gets one message saying how to get it, then the caller exits 1: never a crash loop.
// `npm start`'s supervisor asks again (without starting anything) when a service exits before it
// was ever ready, so a server that goes away while smsq starts gets the same message.
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import amqplib from 'amqplib';
import Redis from 'ioredis';
import pg from 'pg';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The compose file with the three servers alone, on the standard ports (the root docker-compose.yml publishes none of them). */
export const SERVERS_COMPOSE_FILE = join(ROOT, 'deploy', 'compose', 'servers.yml');
/**
 * Its own project name: deploy/compose/.env (make-env.sh) names the production project, whose
 * services are also called postgres, rabbitmq and redis; without -p, Compose would take that name
 * from the .env beside this file and replace the production containers.
 */
export const SERVERS_COMPOSE_PROJECT = 'smsq-servers';
/** One look at a server: connection, login and an answer. */
export const CHECK_TIMEOUT_MS = 3_000;
/** How long a server this script started may take to answer. */
export const START_TIMEOUT_MS = 60_000;
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

/** The three servers: the setting that points at each, its default (as the services read it), and how to get it. */
export const SERVERS = [
  {
    key: 'postgres',
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    fallback: 'postgresql://postgres@127.0.0.1:5432/smsq',
    protocols: ['postgres:', 'postgresql:'],
    defaultPort: 5432,
    example: 'postgresql://smsq:secret@db.example.com:5432/smsq',
    /** The database in the URLs shown (none for npm test's server URL). */
    path: '/smsq',
    // Debian's PostgreSQL asks for a password over TCP, and its postgres user has none: give it one.
    apt: ({ variable, path }) => ['sudo apt-get install -y postgresql', `sudo -u postgres psql -c "ALTER ROLE postgres PASSWORD 'postgres'"`, `then: ${variable}=postgresql://postgres:postgres@127.0.0.1:5432${path} npm start`],
    // Homebrew's PostgreSQL trusts local connections, and its superuser is the user who installed it.
    brew: ({ variable, path }) => ['brew install postgresql@17 && brew services start postgresql@17', `then: ${variable}=postgresql://$(whoami)@127.0.0.1:5432${path} npm start`],
  },
  {
    key: 'rabbitmq',
    name: 'RabbitMQ',
    variable: 'AMQP_URL',
    fallback: 'amqp://guest:guest@127.0.0.1:5672',
    protocols: ['amqp:', 'amqps:'],
    defaultPort: 5672,
    example: 'amqp://smsq:secret@mq.example.com:5672',
    apt: () => ['sudo apt-get install -y rabbitmq-server'],
    brew: () => ['brew install rabbitmq && brew services start rabbitmq'],
  },
  {
    key: 'redis',
    name: 'Redis',
    variable: 'REDIS_URL',
    fallback: 'redis://127.0.0.1:6379',
    protocols: ['redis:', 'rediss:'],
    defaultPort: 6379,
    example: 'redis://:secret@cache.example.com:6379',
    apt: () => ['sudo apt-get install -y redis-server'],
    brew: () => ['brew install redis && brew services start redis'],
  },
];

// ---------------------------------------------------------------------------------------------
// Addresses

/**
 * Where `env` points for `server`: the URL (its default when unset or empty, as the services read
 * it), host, port, user and whether the host is this machine; `problem` when the value is no URL
 * of the server's kind.
 */
export function serverAddress(server, env = process.env) {
  const configured = (env[server.variable] ?? '').trim();
  const raw = configured || server.fallback;
  let url;
  try {
    url = new URL(raw);
  } catch {
    return { server, raw, configured: configured !== '', problem: `${server.variable} is not a URL` };
  }
  if (!server.protocols.includes(url.protocol)) return { server, raw, configured: configured !== '', problem: `${server.variable} must be a ${server.protocols.join(' or ')} URL, not ${url.protocol}` };
  const socketDir = server.key === 'postgres' ? url.searchParams.get('host') : null;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const host = socketDir || hostname || 'localhost';
  const port = Number(url.port) || (server.key === 'rabbitmq' && url.protocol === 'amqps:' ? 5671 : server.defaultPort);
  const user = decodeURIComponent(url.username) || defaultUser(server, env);
  return {
    server,
    raw,
    configured: configured !== '',
    url,
    host,
    port,
    user,
    local: socketDir ? socketDir.startsWith('/') : LOCAL_HOSTS.has(host),
    display: socketDir ? `${socketDir} (port ${port})` : `${host.includes(':') ? `[${host}]` : host}:${port}`,
  };
}

function defaultUser(server, env) {
  if (server.key === 'rabbitmq') return 'guest';
  if (server.key === 'redis') return 'default';
  return env.PGUSER || userInfo().username;
}

/** The URL as it may be shown: its password replaced by ****. */
export function maskedUrl(raw) {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '****';
    return url.href.replace(/\/$/, raw.endsWith('/') ? '/' : '');
  } catch {
    return raw.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1****@');
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

/**
 * What an error from a connection attempt means: `unreachable` (nothing answers there, with the
 * reason in words), `login` (the server answered and refused the user), `starting` (PostgreSQL
 * answered that it is starting up) or `other` (something answered, not as the server should).
 */
export function classifyError(error) {
  const code = error?.code;
  const message = String(error?.message ?? error);
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message)) return { kind: 'unreachable', reason: 'connection refused', refused: true };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || /ENOTFOUND|EAI_AGAIN|getaddrinfo/.test(message)) return { kind: 'unreachable', reason: 'host not found' };
  if (code === 'ETIMEDOUT' || error?.name === 'TimeoutError' || /ETIMEDOUT|timeout|timed out/i.test(message)) return { kind: 'unreachable', reason: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return { kind: 'unreachable', reason: 'no route to the host' };
  if (code === 'ENOENT' && /\.s\.PGSQL/.test(message)) return { kind: 'unreachable', reason: 'no server socket there', refused: true };
  // PostgreSQL: invalid_password, invalid_authorization_specification (no such role, pg_hba.conf said no).
  if (code === '28P01') return { kind: 'login', reason: 'wrong user or password' };
  if (code === '28000') return { kind: 'login', reason: /does not exist/.test(message) ? 'no such user' : 'not allowed to connect (pg_hba.conf)' };
  // pg, when the server asks for a password and the URL gives none.
  if (/client password must be a string|password authentication|no password/i.test(message)) return { kind: 'login', reason: 'it asks for a password, and the URL gives none' };
  if (code === '57P03') return { kind: 'starting', reason: 'starting up' };
  // RabbitMQ: 403 ACCESS_REFUSED (user or password), 530 NOT_ALLOWED (the virtual host).
  if (/ACCESS.REFUSED|\b403\b/.test(message)) return { kind: 'login', reason: 'wrong user or password' };
  if (/NOT.ALLOWED|\b530\b/.test(message)) return { kind: 'login', reason: 'no access to the virtual host' };
  // Redis.
  if (/WRONGPASS|invalid password|invalid username-password/i.test(message)) return { kind: 'login', reason: 'wrong user or password' };
  if (/NOAUTH/.test(message)) return { kind: 'login', reason: 'it asks for a password, and the URL gives none' };
  return { kind: 'other', reason: message.split('\n')[0].slice(0, 200) };
}

/** Settles with `work`'s answer, or rejects with a TimeoutError after `ms`; `cleanup` runs when time is up. */
function withDeadline(work, ms, cleanup) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => {
      cleanup?.();
      reject(Object.assign(new Error(`no answer within ${ms} ms`), { name: 'TimeoutError' }));
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

const LOOKS = {
  /** A login to the server's own `postgres` database: the configured one may not exist yet (the services create it). */
  async postgres(address) {
    const url = new URL(address.url.href);
    url.pathname = '/postgres';
    const client = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: CHECK_TIMEOUT_MS, query_timeout: CHECK_TIMEOUT_MS });
    client.on('error', () => undefined);
    try {
      await withDeadline(
        client.connect().then(() => client.query('SELECT 1')),
        CHECK_TIMEOUT_MS + 200,
        () => void client.end().catch(() => undefined),
      );
    } finally {
      void client.end().catch(() => undefined);
    }
  },
  async rabbitmq(address) {
    let connection;
    let late = false;
    const opening = amqplib.connect(address.raw, { timeout: CHECK_TIMEOUT_MS }).then((opened) => {
      connection = opened;
      opened.on('error', () => undefined);
      if (late) void opened.close().catch(() => undefined);
    });
    try {
      await withDeadline(opening, CHECK_TIMEOUT_MS + 200, () => (late = true));
    } finally {
      if (connection) await connection.close().catch(() => undefined);
    }
  },
  async redis(address) {
    const redis = new Redis(address.raw, { lazyConnect: true, connectTimeout: CHECK_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, reconnectOnError: () => false, enableOfflineQueue: false, enableReadyCheck: false });
    let lastError;
    redis.on('error', (error) => (lastError = error));
    try {
      await withDeadline(
        redis.connect().then(() => redis.ping()),
        CHECK_TIMEOUT_MS + 200,
        () => redis.disconnect(),
      );
    } catch (error) {
      // ioredis answers "Connection is closed." once it gave up; the socket's error says why.
      throw /Connection is closed/.test(error?.message ?? '') && lastError ? lastError : error;
    } finally {
      redis.disconnect();
    }
  },
};

/** One look at the server at `address`: `{ kind: 'ok' }` or what classifyError says. */
export async function look(address) {
  if (address.problem) return { kind: 'invalid', reason: address.problem };
  try {
    await LOOKS[address.server.key](address);
    return { kind: 'ok' };
  } catch (error) {
    return classifyError(error);
  }
}

// ---------------------------------------------------------------------------------------------
// Starting a stopped local server

/** The program's path when it is on the PATH. */
export function onPath(program, env = process.env) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, program);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not there
    }
  }
  return undefined;
}

const isRoot = () => process.getuid?.() === 0;

function run(file, args, timeout = START_TIMEOUT_MS) {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: tmpdir(), timeout, encoding: 'utf8' }, (error, stdout, stderr) => resolve({ ok: !error, output: `${stderr}\n${stdout}`.trim() || error?.message || '' }));
  });
}

/** The argument as a shell shows it. */
const shellWord = (word) => (word === '' ? '""' : /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
export const commandLine = (program, args) => [program, ...args].map(shellWord).join(' ');

/** `pg_lsclusters`'s lines as { version, name, port, status, owner }. */
export function parseClusters(text) {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 5 && /^\d+(\.\d+)?$/.test(fields[0]) && /^\d+$/.test(fields[2]))
    .map(([version, name, port, status, owner]) => ({ version, name, port: Number(port), status, owner }));
}

/**
 * How this machine would start a stopped `server` at `address`, when it may: `{ program, args }`,
 * or `{ cannot }` saying why not, or undefined when nothing here could run one.
 */
export async function startPlan(address, env = process.env) {
  if (!address.local) return undefined;
  const { key } = address.server;
  if (key === 'postgres') {
    const lsclusters = onPath('pg_lsclusters', env);
    const ctlcluster = onPath('pg_ctlcluster', env);
    if (!lsclusters || !ctlcluster) return undefined;
    const listed = await run(lsclusters, ['--no-header'], 10_000);
    const cluster = parseClusters(listed.output).find((candidate) => candidate.port === address.port);
    if (!cluster) return undefined;
    if (!/^down/.test(cluster.status)) return { cannot: `cluster ${cluster.version}/${cluster.name} is ${cluster.status} but does not answer there` };
    if (!isRoot() && userInfo().username !== cluster.owner) return { cannot: `cluster ${cluster.version}/${cluster.name} belongs to ${cluster.owner}; start it with sudo pg_ctlcluster ${cluster.version} ${cluster.name} start` };
    return { program: ctlcluster, shown: 'pg_ctlcluster', args: ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start'] };
  }
  if (key === 'redis') {
    const program = onPath('redis-server', env);
    if (!program) return undefined;
    return { program, shown: 'redis-server', args: ['--port', String(address.port), '--bind', '127.0.0.1', '-::1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no'] };
  }
  // RabbitMQ: only the default node, on the default port; its files belong to its own user (Debian) or to whoever installed it (Homebrew).
  const program = onPath('rabbitmq-server', env);
  if (!program || address.port !== 5672 || address.url.protocol !== 'amqp:') return undefined;
  if (!isRoot()) {
    let owner;
    try {
      owner = statSync(realpathSync(program)).uid;
    } catch {
      owner = undefined;
    }
    if (owner !== process.getuid?.()) return { cannot: 'it runs as a user of its own; start it with sudo rabbitmq-server -detached' };
  }
  return { program, shown: 'rabbitmq-server', args: ['-detached'] };
}

/** Starts the server as `plan` says and waits until it answers (at most START_TIMEOUT_MS): the last look, with `failed` when the command failed. */
async function startAndWait(address, plan) {
  const started = await run(plan.program, plan.args);
  if (!started.ok) return { kind: 'unreachable', reason: 'connection refused', failed: started.output.split('\n').filter(Boolean).slice(-1)[0] ?? 'it failed' };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const result = await look(address);
    if (result.kind === 'ok' || result.kind === 'login' || result.kind === 'invalid') return result;
    if (Date.now() > deadline) return { ...result, failed: `no answer within ${START_TIMEOUT_MS / 1000} s` };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// ---------------------------------------------------------------------------------------------
// The preflight

/**
 * Looks at `server` where `env` points, and starts it when it is local, stopped and may be started
 * here (`startStopped`). Answers `{ address, result, started }`: `started` is the command run, if any.
 */
export async function checkServer(server, env, { startStopped = false } = {}) {
  const address = serverAddress(server, env);
  let result = await look(address);
  // A server that is starting up (PostgreSQL's 57P03) gets the time a start gets.
  if (result.kind === 'starting') {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (result.kind === 'starting' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      result = await look(address);
    }
  }
  if (!result.refused) return { address, result };
  const plan = await startPlan(address, env);
  if (!plan) return { address, result };
  if (plan.cannot) return { address, result: { ...result, cannotStart: plan.cannot } };
  // Not to be started now (npm start's supervisor asking): the next run would.
  if (!startStopped) return { address, result: { ...result, startable: commandLine(plan.shown, plan.args) } };
  const shown = commandLine(plan.shown, plan.args);
  const after = await startAndWait(address, plan);
  return { address, result: after, started: shown };
}

/** The configured URL with its user and a password placeholder, as the fix to type. */
function withCredentials(address) {
  const { url } = address;
  return `${url.protocol}//${address.user}:<password>@${url.host}${url.pathname === '/' ? '' : url.pathname}${url.search}`;
}

const loginText = (address, result) => `refused the login of user "${address.user}": ${result.reason}`;

/** The one line that says how the server stands: "<name> at <address>: <state>". */
export function statusLine({ address, result, started }) {
  const where = address.problem ? `${address.server.name}: ${address.problem} (${maskedUrl(address.raw)})` : `${address.server.name} at ${address.display}`;
  if (address.problem) return where;
  let state;
  if (result.kind === 'ok') state = 'reachable';
  else if (result.kind === 'login') state = loginText(address, result);
  else if (result.kind === 'other') state = `answered, but not as ${address.server.name} does (${result.reason})`;
  else if (result.kind === 'starting') state = 'not ready (still starting up)';
  else state = `not reachable (${result.reason})`;
  if (started) {
    if (result.failed) return `${where}: was stopped; could not start it (${started}: ${result.failed})`;
    if (result.kind === 'ok') return `${where}: was stopped; started it (${started})`;
    return `${where}: was stopped; started it (${started}), then ${state}`;
  }
  if (result.cannotStart) return `${where}: ${state}; installed here, not started (${result.cannotStart})`;
  return `${where}: ${state}`;
}

/** Whether the check found the server usable. */
export const usable = (check) => check.result.kind === 'ok';

/**
 * The message for a server that is not usable: for a missing one, what is missing, where, how to
 * get it (Debian/Ubuntu, macOS, Docker when `docker` is on the PATH) and the variable to point at
 * one that exists; for a refused login, the user and the credentials to fix; for a bad URL, the
 * variable. `composePath`: the compose file as the user should type it.
 */
export function missingMessage(who, check, { docker = false, composePath = 'deploy/compose/servers.yml' } = {}) {
  const { address, result, started } = check;
  const { server } = address;
  const from = address.configured ? `${server.variable}=${maskedUrl(address.raw)}` : `the default; ${server.variable} is unset`;
  if (address.problem) return [`${who} cannot use ${server.name}: ${address.problem} (${maskedUrl(address.raw)}).`, `  Set it like: ${server.variable}=${server.example}`].join('\n');
  if (result.kind === 'login') {
    const lines = [
      `${who} cannot use ${server.name} at ${address.display} (${from}): it ${loginText(address, result)}.`,
      `  The server is there: fix the user and password in ${server.variable}, e.g. ${server.variable}=${withCredentials(address)}`,
    ];
    if (server.key === 'postgres' && address.local) lines.push(`  (a local Debian/Ubuntu PostgreSQL: give its postgres user a password with sudo -u postgres psql -c "ALTER ROLE postgres PASSWORD 'postgres'")`);
    return lines.join('\n');
  }
  if (result.kind === 'other') {
    return [
      `${who} needs ${server.name} at ${address.display} (${from}), and what answers there is not ${server.name} (${result.reason}).`,
      `  Point ${server.variable} at a ${server.name} server, e.g. ${server.variable}=${server.example}`,
    ].join('\n');
  }
  const lines = [`${who} needs ${server.name}, and none answers at ${address.display} (${from}; ${result.failed ? `could not start it: ${result.failed}` : result.reason}).`];
  if (result.failed) {
    lines.push(`  It is installed here but did not start with: ${started}  (its log may say why)`);
    lines.push(`  Or point ${server.variable} at a ${server.name} you have: ${server.variable}=${server.example}`);
    return lines.join('\n');
  }
  if (result.startable) {
    lines.push(`  It is installed here but stopped: ${who} starts it when run again (${result.startable}).`);
    lines.push(`  Or point ${server.variable} at a ${server.name} you have: ${server.variable}=${server.example}`);
    return lines.join('\n');
  }
  if (result.cannotStart) {
    lines.push(`  It is installed here but not running, and not started: ${result.cannotStart}`);
    lines.push(`  Or point ${server.variable} at a ${server.name} you have: ${server.variable}=${server.example}`);
    return lines.join('\n');
  }
  lines.push('  Get it:');
  // The commands to run again are the caller's own (npm test's message says npm test).
  const again = (line) => (who.startsWith('npm ') ? line.replace(/ npm start$/, ` ${who}`) : line);
  lines.push(...server.apt(server).map((line, index) => `    ${index === 0 ? 'Debian/Ubuntu: ' : '               '}${again(line)}`));
  lines.push(...server.brew(server).map((line, index) => `    ${index === 0 ? 'macOS:         ' : '               '}${again(line)}`));
  if (docker) lines.push(`    Docker:        ${composeCommand(composePath, [server.key])}`);
  lines.push(`  Or point ${server.variable} at a ${server.name} you have: ${server.variable}=${server.example}`);
  return lines.join('\n');
}

/** The one command that brings `services` (compose service names) up from servers.yml on the standard ports, with named volumes. */
export const composeCommand = (composePath, services) => `docker compose -f ${shellWord(composePath)} -p ${SERVERS_COMPOSE_PROJECT} up -d ${services.join(' ')}`;

/**
 * `who` (`npm start`, `npm test`) checks the three servers where `env` points, in parallel, and
 * prints one line each (in a fixed order, each as soon as it is known), through `line`. With
 * `startStopped`, a local server installed here but stopped is started first. For each server
 * that is not usable, one message follows (through `message`, stderr by default). With `quiet`,
 * nothing is printed unless a server is not usable. `servers`: fields of SERVERS to change, by key
 * (`npm test` reads its PostgreSQL from a variable of its own). Answers whether all three are
 * usable; whole within about CHECK_TIMEOUT_MS when nothing needs starting, whatever the addresses do.
 */
export async function preflight(who, env = process.env, { startStopped = false, quiet = false, servers = {}, line = (text) => process.stdout.write(`${text}\n`), message = (text) => process.stderr.write(`${text}\n`) } = {}) {
  const pending = SERVERS.map((server) => checkServer({ ...server, ...servers[server.key] }, env, { startStopped }));
  const checks = [];
  for (const check of pending) {
    const done = await check;
    checks.push(done);
    if (!quiet) line(statusLine(done));
  }
  const bad = checks.filter((check) => !usable(check));
  if (bad.length === 0) return true;
  if (quiet) for (const check of checks) line(statusLine(check));
  const docker = onPath('docker', env) !== undefined;
  const composePath = relative(env.INIT_CWD || process.cwd(), SERVERS_COMPOSE_FILE) || SERVERS_COMPOSE_FILE;
  message('');
  for (const check of bad) message(`${missingMessage(who, check, { docker, composePath })}\n`);
  const missing = bad.filter((check) => check.result.kind === 'unreachable' && !check.result.cannotStart && !check.result.startable && !check.result.failed);
  if (docker && missing.length > 1) message(`All the missing ones at once, with Docker: ${composeCommand(composePath, missing.map((check) => check.address.server.key))}\n`);
  return false;
}

/** Exits with `code` once what was written to stdout and stderr is out (pipes are asynchronous on some systems). */
export async function exitAfterOutput(code) {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
  process.exit(code);
}
