import { freePort, TEST_SERVER_URL } from '@smsq/testing';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** scripts/lib/servers.mjs: `npm start`'s and `npm test`'s preflight (plain JavaScript, typed here as far as the checks read it). */
interface ServerInfo {
  key: 'postgres' | 'rabbitmq' | 'redis';
  name: string;
  variable: string;
}
interface Address {
  server: ServerInfo;
  raw: string;
  configured: boolean;
  problem?: string;
  host: string;
  port: number;
  user: string;
  local: boolean;
  display: string;
}
interface Result {
  kind: 'ok' | 'unreachable' | 'login' | 'starting' | 'other' | 'invalid';
  reason?: string;
  refused?: boolean;
  failed?: string;
  cannotStart?: string;
}
interface Check {
  address: Address;
  result: Result;
  started?: string;
}
interface ServersModule {
  SERVERS: ServerInfo[];
  serverAddress(server: ServerInfo, env: Record<string, string | undefined>): Address;
  maskedUrl(raw: string): string;
  classifyError(error: unknown): Result;
  statusLine(check: Check): string;
  missingMessage(who: string, check: Check, options?: { docker?: boolean; composePath?: string }): string;
  parseClusters(text: string): { version: string; name: string; port: number; status: string; owner: string }[];
  commandLine(program: string, args: string[]): string;
  checkServer(server: ServerInfo, env: Record<string, string | undefined>, options?: { startStopped?: boolean }): Promise<Check>;
  preflight(who: string, env: Record<string, string | undefined>, options: { startStopped?: boolean; quiet?: boolean; line: (text: string) => void; message: (text: string) => void }): Promise<boolean>;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MODULE = pathToFileURL(join(ROOT, 'scripts', 'lib', 'servers.mjs')).href;

let servers: ServersModule;
let postgres: ServerInfo;
let rabbitmq: ServerInfo;
let redis: ServerInfo;

beforeAll(async () => {
  servers = (await import(MODULE)) as ServersModule;
  [postgres, rabbitmq, redis] = servers.SERVERS as [ServerInfo, ServerInfo, ServerInfo];
});

const check = (server: ServerInfo, env: Record<string, string>, result: Result, started?: string): Check => ({ address: servers.serverAddress(server, env), result, ...(started ? { started } : {}) });

describe('the preflight: where each server is', () => {
  it('reads DATABASE_URL, AMQP_URL and REDIS_URL, with the services’ defaults when unset or empty', () => {
    const none = servers.serverAddress(postgres, {});
    expect([none.display, none.user, none.local, none.configured]).toEqual(['127.0.0.1:5432', 'postgres', true, false]);
    expect(servers.serverAddress(postgres, { DATABASE_URL: '  ' }).display).toBe('127.0.0.1:5432');
    expect(servers.serverAddress(rabbitmq, { AMQP_URL: '' }).display).toBe('127.0.0.1:5672');
    expect(servers.serverAddress(redis, {}).display).toBe('127.0.0.1:6379');
    const elsewhere = servers.serverAddress(rabbitmq, { AMQP_URL: 'amqps://smsq:pw@mq.example.com' });
    expect([elsewhere.display, elsewhere.user, elsewhere.local, elsewhere.configured]).toEqual(['mq.example.com:5671', 'smsq', false, true]);
    expect(servers.serverAddress(rabbitmq, { AMQP_URL: 'amqp://127.0.0.1:5673' }).user).toBe('guest');
    expect(servers.serverAddress(redis, { REDIS_URL: 'redis://[::1]:6380/2' })).toMatchObject({ host: '::1', port: 6380, display: '[::1]:6380', local: true, user: 'default' });
    expect(servers.serverAddress(postgres, { DATABASE_URL: 'postgresql://bob@localhost/smsq' })).toMatchObject({ display: 'localhost:5432', user: 'bob', local: true });
  });

  it('names a value that is no URL of the server’s kind, and never shows a password', () => {
    expect(servers.serverAddress(postgres, { DATABASE_URL: 'not a url' }).problem).toBe('DATABASE_URL is not a URL');
    expect(servers.serverAddress(redis, { REDIS_URL: 'http://127.0.0.1:6379' }).problem).toMatch(/^REDIS_URL must be a redis: or rediss: URL/);
    expect(servers.maskedUrl('amqp://guest:s3cret@127.0.0.1:5672')).toBe('amqp://guest:****@127.0.0.1:5672');
    expect(servers.maskedUrl('postgresql://postgres@127.0.0.1:5432/smsq')).toBe('postgresql://postgres@127.0.0.1:5432/smsq');
    expect(servers.statusLine(check(redis, { REDIS_URL: 'http://:s3cret@h' }, { kind: 'invalid' }))).not.toContain('s3cret');
  });
});

describe('the preflight: what an answer means', () => {
  it('tells nothing there from a refused login', () => {
    const kind = (error: unknown) => servers.classifyError(error).kind;
    expect(servers.classifyError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5499'), { code: 'ECONNREFUSED' }))).toMatchObject({ kind: 'unreachable', reason: 'connection refused', refused: true });
    expect(servers.classifyError(Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND' }))).toMatchObject({ kind: 'unreachable', reason: 'host not found' });
    expect(servers.classifyError(new Error('Connection terminated due to connection timeout'))).toMatchObject({ kind: 'unreachable', reason: 'no answer within 3 s' });
    expect(servers.classifyError(new Error('connect ETIMEDOUT')).reason).toBe('no answer within 3 s');
    expect(kind(Object.assign(new Error('password authentication failed for user "postgres"'), { code: '28P01' }))).toBe('login');
    expect(servers.classifyError(Object.assign(new Error('role "bob" does not exist'), { code: '28000' })).reason).toBe('no such user');
    expect(servers.classifyError(new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string')).reason).toBe('it asks for a password, and the URL gives none');
    expect(kind(new Error('Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused"'))).toBe('login');
    expect(kind(new Error('WRONGPASS invalid username-password pair or user is disabled.'))).toBe('login');
    expect(kind(new Error('NOAUTH Authentication required.'))).toBe('login');
    expect(kind(Object.assign(new Error('the database system is starting up'), { code: '57P03' }))).toBe('starting');
    expect(kind(new Error('Frame size exceeds frame max'))).toBe('other');
  });

  it('says it in one line each, in the form the end-to-end tests read', () => {
    expect(servers.statusLine(check(postgres, {}, { kind: 'ok' }))).toBe('PostgreSQL at 127.0.0.1:5432: reachable');
    expect(servers.statusLine(check(postgres, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5499/smsq' }, { kind: 'unreachable', reason: 'connection refused' }))).toBe('PostgreSQL at 127.0.0.1:5499: not reachable (connection refused)');
    expect(servers.statusLine(check(redis, { REDIS_URL: 'redis://10.9.9.9:6379' }, { kind: 'unreachable', reason: 'no answer within 3 s' }))).toBe('Redis at 10.9.9.9:6379: not reachable (no answer within 3 s)');
    expect(servers.statusLine(check(redis, { REDIS_URL: 'redis://cache.invalid:6379' }, { kind: 'unreachable', reason: 'host not found' }))).toBe('Redis at cache.invalid:6379: not reachable (host not found)');
    expect(servers.statusLine(check(rabbitmq, { AMQP_URL: 'amqp://guest:wrong@127.0.0.1:5672' }, { kind: 'login', reason: 'wrong user or password' }))).toBe('RabbitMQ at 127.0.0.1:5672: refused the login of user "guest": wrong user or password');
    const command = 'redis-server --port 6391 --bind 127.0.0.1 -::1 --daemonize yes --save "" --appendonly no';
    expect(servers.statusLine(check(redis, { REDIS_URL: 'redis://127.0.0.1:6391' }, { kind: 'ok' }, command))).toBe(`Redis at 127.0.0.1:6391: was stopped; started it (${command})`);
    expect(servers.commandLine('redis-server', ['--port', '6391', '--bind', '127.0.0.1', '-::1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no'])).toBe(command);
  });

  it('finds the PostgreSQL cluster on a port in pg_lsclusters', () => {
    const listed = '15  main    5432 online postgres /var/lib/postgresql/15/main /var/log/postgresql/postgresql-15-main.log\n17  other   5491 down   postgres /var/lib/postgresql/17/other /var/log/postgresql/postgresql-17-other.log\n';
    expect(servers.parseClusters(listed)).toEqual([
      { version: '15', name: 'main', port: 5432, status: 'online', owner: 'postgres' },
      { version: '17', name: 'other', port: 5491, status: 'down', owner: 'postgres' },
    ]);
  });
});

describe('the preflight: the message for a server that is missing', () => {
  const refused: Result = { kind: 'unreachable', reason: 'connection refused', refused: true };

  it('says what is missing, where, how to get it on Debian/Ubuntu and macOS, and the variable to point at another', () => {
    const message = servers.missingMessage('npm start', check(postgres, { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5499/smsq' }, refused));
    expect(message).toMatch(/^npm start needs PostgreSQL, and none answers at 127\.0\.0\.1:5499 \(DATABASE_URL=postgresql:\/\/postgres@127\.0\.0\.1:5499\/smsq; connection refused\)\./);
    expect(message).toContain('sudo apt-get install -y postgresql');
    expect(message).toContain('brew install postgresql@17 && brew services start postgresql@17');
    expect(message).toMatch(/Or point DATABASE_URL at a PostgreSQL you have: DATABASE_URL=postgresql:\/\//);
    expect(message).not.toContain('docker');
    expect(servers.missingMessage('npm start', check(redis, {}, refused))).toContain('sudo apt-get install -y redis-server');
    expect(servers.missingMessage('npm start', check(rabbitmq, {}, refused))).toContain('brew install rabbitmq && brew services start rabbitmq');
  });

  it('gives the one Docker command for just that server, from the servers’ own compose file, when docker is here', () => {
    const message = servers.missingMessage('npm start', check(redis, {}, refused), { docker: true, composePath: 'deploy/compose/servers.yml' });
    expect(message).toContain('docker compose -f deploy/compose/servers.yml -p smsq-servers up -d redis');
  });

  it('tells a refused login apart: names the user and the credentials to fix, offers no install', () => {
    const message = servers.missingMessage('npm start', check(rabbitmq, { AMQP_URL: 'amqp://guest:wrong@127.0.0.1:5672' }, { kind: 'login', reason: 'wrong user or password' }), { docker: true });
    expect(message).toContain('refused the login of user "guest": wrong user or password');
    expect(message).toContain('fix the user and password in AMQP_URL, e.g. AMQP_URL=amqp://guest:<password>@127.0.0.1:5672');
    expect(message).not.toMatch(/apt-get|brew|docker/);
    expect(message).not.toContain('wrong@');
  });
});

describe('the preflight, for real', () => {
  let silent: NetServer;
  const sockets: Socket[] = [];
  let silentPort: number;

  beforeAll(async () => {
    // Takes connections and never answers: a server that hangs, or a firewall that drops.
    silent = createServer((socket) => void sockets.push(socket));
    silentPort = await freePort();
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  const run = async (env: Record<string, string>) => {
    const lines: string[] = [];
    const messages: string[] = [];
    const started = Date.now();
    const ok = await servers.preflight('npm start', env, { line: (text) => lines.push(text), message: (text) => messages.push(text) });
    return { ok, lines, messages: messages.join('\n'), ms: Date.now() - started };
  };

  it('finds the machine’s servers reachable, in one line each', async () => {
    const { ok, lines, messages } = await run({ DATABASE_URL: `${TEST_SERVER_URL}/postgres`, AMQP_URL: process.env['AMQP_URL'] ?? '', REDIS_URL: process.env['REDIS_URL'] ?? '' });
    expect(lines.map((line) => line.replace(/ at .*: /, ': '))).toEqual(['PostgreSQL: reachable', 'RabbitMQ: reachable', 'Redis: reachable']);
    expect(messages).toBe('');
    expect(ok).toBe(true);
  });

  it('says a closed port and a server that never answers within 10 s, one message each, without starting anything', async () => {
    const closed = await freePort();
    const { ok, lines, messages, ms } = await run({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${closed}/smsq`, AMQP_URL: `amqp://guest:guest@127.0.0.1:${silentPort}`, REDIS_URL: `redis://127.0.0.1:${closed}` });
    expect(ok).toBe(false);
    expect(lines).toEqual([`PostgreSQL at 127.0.0.1:${closed}: not reachable (connection refused)`, `RabbitMQ at 127.0.0.1:${silentPort}: not reachable (no answer within 3 s)`, `Redis at 127.0.0.1:${closed}: not reachable (connection refused)`]);
    expect(messages.match(/^npm start needs \w+, and none answers at /gm)).toHaveLength(3);
    expect(messages).not.toMatch(/\n\s+at |Error:/);
    expect(ms).toBeLessThan(10_000);
  });

  it('names a wrong RabbitMQ password as such', async () => {
    const amqp = new URL(process.env['AMQP_URL'] || 'amqp://guest:guest@127.0.0.1:5672');
    amqp.password = 'certainly-not-the-password';
    const { address, result } = await servers.checkServer(rabbitmq, { AMQP_URL: amqp.href });
    expect(result).toMatchObject({ kind: 'login', reason: 'wrong user or password' });
    expect(servers.statusLine({ address, result })).toBe(`RabbitMQ at ${address.display}: refused the login of user "${address.user}": wrong user or password`);
  });
});
