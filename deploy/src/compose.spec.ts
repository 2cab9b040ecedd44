import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeCommand, environmentOf, mounts, publishedPorts, resolveCompose, type ResolvedCompose } from './compose.js';

const deployRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(deployRoot, '..');
const composeDir = join(deployRoot, 'compose');
const PRODUCTION = join(composeDir, 'docker-compose.yml');
const DEMO = join(repoRoot, 'docker-compose.yml');
const SERVERS = join(composeDir, 'servers.yml');
const SECRETS = ['POSTGRES_PASSWORD', 'RABBITMQ_PASSWORD', 'REDIS_PASSWORD', 'DASHBOARD_SECRET'] as const;

let workspace: string;
let envFile: string;
let env: Record<string, string>;
let resolved: ResolvedCompose;

function makeEnv(out: string, ...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync('sh', [join(composeDir, 'make-env.sh'), '--out', out, ...args], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

function readEnvFile(file: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** Every string anywhere in the resolved configuration. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, inner]) => [key, ...strings(inner)]);
  return [];
}

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), 'smsq-compose-'));
  envFile = join(workspace, '.env');
  const made = makeEnv(envFile, '--domain', 'sms.example.com');
  expect(made.stderr).toBe('');
  env = readEnvFile(envFile);
  resolved = resolveCompose(PRODUCTION, { envFile });
});

afterAll(() => {
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

describe('Docker Compose, which checks the files', () => {
  it('is here (`docker compose` or `docker-compose`); without it these checks fail rather than skip', () => {
    expect(composeCommand().length).toBeGreaterThan(0);
  });
});

describe('deploy/compose/make-env.sh', () => {
  it('writes fresh random passwords and the dashboard secret, readable by the owner only', () => {
    const second = join(workspace, 'second.env');
    expect(makeEnv(second, '--domain', 'sms.example.com').status).toBe(0);
    const other = readEnvFile(second);
    for (const name of SECRETS) {
      expect(env[name], name).toMatch(/^[0-9a-f]{64}$/);
      expect(other[name], `${name} differs between two runs`).not.toBe(env[name]);
    }
    expect(new Set(SECRETS.map((name) => env[name])).size).toBe(SECRETS.length);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(env['SMSQ_DOMAIN']).toBe('sms.example.com');
    // Its own project name: never the demo's volumes, whose PostgreSQL trusts everyone.
    expect(env['COMPOSE_PROJECT_NAME']).toBe('smsq-prod');
  });

  it('never overwrites an .env, and refuses a domain that is not a host name', () => {
    const before = readFileSync(envFile, 'utf8');
    const again = makeEnv(envFile, '--domain', 'other.example.com');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/exists/);
    expect(readFileSync(envFile, 'utf8')).toBe(before);
    expect(makeEnv(join(workspace, 'bad.env'), '--domain', 'https://sms.example.com/').status).toBe(64);
    expect(makeEnv(join(workspace, 'none.env')).status).toBe(64);
  });

  it('keeps it out of the image: the build context is the repository, and .dockerignore leaves every .env out', () => {
    expect(resolved.services['smsq']!.build).toMatchObject({ context: repoRoot });
    expect(readFileSync(join(repoRoot, '.dockerignore'), 'utf8').split('\n')).toContain('**/.env');
  });

  it('writes where Compose reads it, and git ignores it there', () => {
    const ignored = spawnSync('git', ['check-ignore', '-q', join(composeDir, '.env')], { cwd: repoRoot });
    expect(ignored.status).toBe(0);
    expect(readFileSync(join(composeDir, 'make-env.sh'), 'utf8')).toContain('out="$here/.env"');
  });
});

describe('deploy/compose/docker-compose.yml, resolved by `docker compose config`', () => {
  it('runs PostgreSQL, RabbitMQ, Redis, smsq, Caddy and the backups, each restarted by the engine unless stopped, each with a healthcheck', () => {
    expect(Object.keys(resolved.services).sort()).toEqual(['backup', 'caddy', 'postgres', 'rabbitmq', 'redis', 'smsq']);
    for (const [name, service] of Object.entries(resolved.services)) {
      expect(service.restart, name).toBe('unless-stopped');
      expect(service.healthcheck?.test, `${name} has a healthcheck`).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
      expect(service.network_mode, name).toBeUndefined();
    }
  });

  it('publishes HTTPS on 443 from Caddy and SMPP on 2775 from smsq, and nothing else: no database, broker, Redis, API, dashboard or metrics port on the host', () => {
    const published = Object.entries(resolved.services).flatMap(([name, service]) => publishedPorts(service).map((port) => ({ name, ...port })));
    expect(published.map(({ name, target, published: host, protocol }) => `${name} ${host}->${target}/${protocol}`).sort()).toEqual(['caddy 443->443/tcp', 'caddy 443->443/udp', 'smsq 2775->2775/tcp']);
  });

  it('signs in to PostgreSQL with a password only (scram-sha-256, no trust), with the password from .env', () => {
    const postgres = environmentOf(resolved.services['postgres']!);
    expect(postgres['POSTGRES_PASSWORD']).toBe(env['POSTGRES_PASSWORD']);
    expect(postgres['POSTGRES_HOST_AUTH_METHOD']).toBe('scram-sha-256');
    expect(postgres['POSTGRES_INITDB_ARGS']).toContain('--auth-host=scram-sha-256');
    expect(postgres['POSTGRES_INITDB_ARGS']).toContain('--auth-local=scram-sha-256');
    expect(strings(resolved).filter((value) => /\btrust\b/i.test(value))).toEqual([]);
  });

  it('gives RabbitMQ a user of its own (no guest) and Redis a password, both from .env', () => {
    const rabbitmq = environmentOf(resolved.services['rabbitmq']!);
    expect(rabbitmq['RABBITMQ_DEFAULT_USER']).toBe('smsq');
    expect(rabbitmq['RABBITMQ_DEFAULT_PASS']).toBe(env['RABBITMQ_PASSWORD']);
    expect(strings(resolved).filter((value) => /guest/i.test(value))).toEqual([]);
    const redis = resolved.services['redis']!.command!;
    expect(redis[redis.indexOf('--requirepass') + 1]).toBe(env['REDIS_PASSWORD']);
  });

  it('runs smsq in production, without the demo, connecting with the passwords from .env', () => {
    const smsq = environmentOf(resolved.services['smsq']!);
    expect(smsq['SMSQ_DEMO']).toBe('false');
    expect(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')).toMatch(/^ENV NODE_ENV=production\b/m);
    const database = new URL(smsq['DATABASE_URL']!);
    expect([database.protocol, database.hostname, database.port, database.pathname, database.password]).toEqual(['postgresql:', 'postgres', '5432', '/smsq', env['POSTGRES_PASSWORD']]);
    const amqp = new URL(smsq['AMQP_URL']!);
    expect([amqp.protocol, amqp.hostname, amqp.username, amqp.password]).toEqual(['amqp:', 'rabbitmq', 'smsq', env['RABBITMQ_PASSWORD']]);
    // ioredis reads user and password from the URL; `default` is the user requirepass sets.
    const redis = new URL(smsq['REDIS_URL']!);
    expect([redis.protocol, redis.hostname, redis.username, redis.password]).toEqual(['redis:', 'redis', 'default', env['REDIS_PASSWORD']]);
    expect(smsq['DASHBOARD_SECRET']).toBe(env['DASHBOARD_SECRET']);
    expect(smsq['DASHBOARD_PUBLIC_API_URL']).toBe('https://sms.example.com');
    expect(smsq['DASHBOARD_PUBLIC_URL']).toBe('https://sms.example.com');
  });

  it('takes every password from .env: each secret there is used, and no other credential is written into the file', () => {
    const text = strings(resolved);
    for (const name of SECRETS) expect(text.some((value) => value.includes(env[name]!)), `${name} is used`).toBe(true);
    const generated = new Set(SECRETS.map((name) => env[name]!));
    for (const [service, definition] of Object.entries(resolved.services)) {
      for (const [name, value] of Object.entries(environmentOf(definition))) {
        if (/PASS|SECRET|AUTH$/.test(name) && !/AUTH_METHOD/.test(name)) expect(generated.has(value), `${service} ${name}`).toBe(true);
        if (/^[a-z]+:\/\/[^/]*@/.test(value)) expect(generated.has(decodeURIComponent(new URL(value).password)), `${service} ${name}'s password`).toBe(true);
      }
    }
    // Nothing secret is in the file itself: without the .env, Compose refuses it.
    const empty = join(workspace, 'empty.env');
    writeFileSync(empty, '');
    expect(() => resolveCompose(PRODUCTION, { envFile: empty })).toThrow(/make-env\.sh/);
  });

  it('backs up with pg_dump from the server’s own image into the backups volume, on the schedule .env sets', () => {
    const backup = resolved.services['backup']!;
    expect(backup.image).toBe(resolved.services['postgres']!.image);
    expect(Object.keys(resolved.volumes ?? {})).toContain('backups');
    const dir = environmentOf(backup)['SMSQ_BACKUP_DIR'];
    expect(mounts(backup)).toContainEqual({ source: 'backups', target: dir, readOnly: false });
    const script = mounts(backup).find((mount) => mount.target === '/usr/local/bin/smsq-backup')!;
    expect(script.source).toBe(join(composeDir, 'backup.sh'));
    expect(() => accessSync(script.source, constants.X_OK)).not.toThrow();
    expect([...backup.entrypoint!, ...backup.command!]).toEqual(['/bin/sh', '/usr/local/bin/smsq-backup', 'schedule']);
    expect(environmentOf(backup)).toMatchObject({ PGHOST: 'postgres', PGDATABASE: 'smsq', PGPASSWORD: env['POSTGRES_PASSWORD'], SMSQ_BACKUP_INTERVAL_S: '86400', SMSQ_BACKUP_KEEP: '14' });

    const changed = join(workspace, 'changed.env');
    writeFileSync(changed, readFileSync(envFile, 'utf8').replace('SMSQ_BACKUP_INTERVAL_S=86400', 'SMSQ_BACKUP_INTERVAL_S=3600').replace('SMSQ_BACKUP_KEEP=14', 'SMSQ_BACKUP_KEEP=48'));
    expect(environmentOf(resolveCompose(PRODUCTION, { envFile: changed }).services['backup']!)).toMatchObject({ SMSQ_BACKUP_INTERVAL_S: '3600', SMSQ_BACKUP_KEEP: '48' });
  });

  it('keeps the data, the certificates and the backups in named volumes', () => {
    const volumeOf = (service: string, target: string) => mounts(resolved.services[service]!).find((mount) => mount.target === target)?.source;
    expect(volumeOf('postgres', '/var/lib/postgresql/data')).toBe('postgres-data');
    expect(volumeOf('rabbitmq', '/var/lib/rabbitmq')).toBe('rabbitmq-data');
    expect(volumeOf('caddy', '/data')).toBe('caddy-data');
    // RabbitMQ's data is kept under its node name, made from the host name.
    expect(resolved.services['rabbitmq']!.hostname).toBe('rabbitmq');
  });
});

describe('SMPP in deploy/compose/docker-compose.yml', () => {
  const smppConfig = () => readFileSync(join(repoRoot, 'apps/smpp/src/config/smpp-config.ts'), 'utf8');

  it('publishes the port the smpp service listens on and the dashboard tells clients, SMSQ_SMPP_PORT from .env', () => {
    expect(env['SMSQ_SMPP_PORT']).toBe('2775');
    expect(readFileSync(join(repoRoot, 'libs/platform/src/config/common-config.ts'), 'utf8')).toContain("env.port('SMSQ_SMPP_PORT', 2775)");
    expect(smppConfig()).toContain('smppPort: readSmppPort(env)');
    expect(readFileSync(join(repoRoot, 'apps/dashboard/src/config/dashboard-config.ts'), 'utf8')).toContain('smppPort: readSmppPort(env)');
    // One container runs every service (`npm start`), the dashboard and smpp among them: one variable for both.
    const smsq = resolved.services['smsq']!;
    expect(environmentOf(smsq)['SMSQ_SMPP_PORT']).toBe('2775');
    expect(publishedPorts(smsq)).toEqual([{ target: 2775, published: '2775', protocol: 'tcp', hostIp: undefined }]);

    const moved = join(workspace, 'smpp-port.env');
    writeFileSync(moved, readFileSync(envFile, 'utf8').replace('SMSQ_SMPP_PORT=2775', 'SMSQ_SMPP_PORT=2776'));
    const elsewhere = resolveCompose(PRODUCTION, { envFile: moved }).services['smsq']!;
    expect(environmentOf(elsewhere)['SMSQ_SMPP_PORT']).toBe('2776');
    expect(publishedPorts(elsewhere)).toEqual([{ target: 2776, published: '2776', protocol: 'tcp', hostIp: undefined }]);
  });

  it("counts smpp's readiness in smsq's healthcheck, on the HTTP port it is left at", () => {
    expect(smppConfig()).toContain("env.port('SMPP_HTTP_PORT', 3014)");
    expect(environmentOf(resolved.services['smsq']!)['SMPP_HTTP_PORT']).toBeUndefined();
    expect(String(resolved.services['smsq']!.healthcheck!.test)).toMatch(/\[3000, 3001, 3014\]\.map\(.*\/readyz/);
  });

  it('offers SMPP over TLS on 3550 as the comments say: uncommented, the certificate is mounted read-only where SMSQ_SMPP_TLS_CERT and SMSQ_SMPP_TLS_KEY point', () => {
    expect(smppConfig()).toContain("env.port('SMSQ_SMPP_TLS_PORT', 3550)");
    const text = readFileSync(PRODUCTION, 'utf8');
    const commented = ['      # SMSQ_SMPP_TLS_CERT: ', '      # SMSQ_SMPP_TLS_KEY: ', '    # volumes:\n', '    #   - /etc/smsq/smpp-tls:', '      # - "3550:3550"'];
    for (const line of commented) expect(text, line).toContain(line);
    // Beside the original, so its relative paths resolve the same; removed at once.
    const uncommented = join(composeDir, `.tls-check-${process.pid}.yml`);
    writeFileSync(uncommented, commented.reduce((file, line) => file.replace(line, line.replace('# ', '')), text));
    let smsq: ReturnType<typeof resolveCompose>['services'][string];
    try {
      smsq = resolveCompose(uncommented, { envFile }).services['smsq']!;
    } finally {
      rmSync(uncommented, { force: true });
    }
    const tls = environmentOf(smsq);
    const mount = mounts(smsq).find((candidate) => tls['SMSQ_SMPP_TLS_CERT']!.startsWith(`${candidate.target}/`))!;
    expect(mount).toMatchObject({ readOnly: true });
    expect(tls['SMSQ_SMPP_TLS_KEY']!.startsWith(`${mount.target}/`)).toBe(true);
    // Outside the repository: a key never lands in git or, through the build context, in the image.
    expect(mount.source.startsWith(repoRoot)).toBe(false);
    expect(publishedPorts(smsq).map((port) => port.target).sort()).toEqual([2775, 3550]);
  });
});

describe('Caddy in deploy/compose/docker-compose.yml', () => {
  it('reads the Caddyfile (deploy/src/caddyfile.spec.ts runs it) with SMSQ_DOMAIN from .env, and forwards to the ports smsq listens on', () => {
    expect(environmentOf(resolved.services['caddy']!)['SMSQ_DOMAIN']).toBe('sms.example.com');
    expect(mounts(resolved.services['caddy']!)).toContainEqual({ source: join(composeDir, 'Caddyfile'), target: '/etc/caddy/Caddyfile', readOnly: true });
    const caddyfile = readFileSync(join(composeDir, 'Caddyfile'), 'utf8');
    expect(caddyfile).toContain('reverse_proxy smsq:3000');
    expect(caddyfile).toContain('reverse_proxy smsq:3001');
    // PORT and DASHBOARD_PORT are left at their defaults, which are those.
    const smsq = environmentOf(resolved.services['smsq']!);
    expect(smsq['PORT']).toBeUndefined();
    expect(smsq['DASHBOARD_PORT']).toBeUndefined();
    expect(readFileSync(join(repoRoot, 'apps/api-gateway/src/config/gateway-config.ts'), 'utf8')).toContain("env.port('PORT', 3000)");
    expect(readFileSync(join(repoRoot, 'apps/dashboard/src/config/dashboard-config.ts'), 'utf8')).toContain("env.port('DASHBOARD_PORT', 3001)");
  });
});

describe('docs/guide/running.md, "Production on one server"', () => {
  it('shows the pg_dump and pg_restore the backup script runs, and the script commands the restore test runs', () => {
    const docs = readFileSync(join(repoRoot, 'docs/guide/running.md'), 'utf8');
    const script = readFileSync(join(composeDir, 'backup.sh'), 'utf8');
    const shown = [...docs.matchAll(/^ *(pg_dump|pg_restore) (.+)$/gm)].map((match) => `${match[1]} ${match[2]}`);
    expect(shown.map((line) => line.split(' ')[0]).sort()).toEqual(['pg_dump', 'pg_restore']);
    for (const line of shown) expect(script, line).toContain(line);
    // e2e/src/backup-restore.e2e.spec.ts runs `backup.sh now` and `backup.sh restore FILE`.
    expect(docs).toContain('docker compose exec backup smsq-backup now');
    expect(docs).toMatch(/docker compose exec backup smsq-backup restore \/backups\/smsq-\d{8}T\d{6}Z\.dump\n/);
    expect(readFileSync(join(repoRoot, 'e2e/src/backup-restore.e2e.spec.ts'), 'utf8')).toMatch(/\[BACKUP_SCRIPT, 'now'\][\s\S]*\[BACKUP_SCRIPT, 'restore', dumpFile\]/);
  });
});

describe('docker-compose.yml, the demo', () => {
  it('still resolves', () => {
    const demo = resolveCompose(DEMO, { env: { DASHBOARD_SECRET: 'a-demo-secret-of-at-least-32-characters' } });
    expect(Object.keys(demo.services)).toEqual(expect.arrayContaining(['postgres', 'rabbitmq', 'redis', 'smsq']));
    expect(existsSync(join(repoRoot, 'Dockerfile'))).toBe(true);
  });
});

describe('deploy/compose/servers.yml, the servers alone, which `npm start` names when one is missing', () => {
  it('runs PostgreSQL 17, RabbitMQ 4 and Redis 7 on their standard ports, reachable from this machine only, each with a healthcheck and its data in a named volume', () => {
    const servers = resolveCompose(SERVERS);
    expect(Object.fromEntries(Object.entries(servers.services).map(([name, service]) => [name, service.image]))).toEqual({ postgres: 'postgres:17', rabbitmq: 'rabbitmq:4-management', redis: 'redis:7' });
    const published = Object.entries(servers.services).flatMap(([name, service]) => publishedPorts(service).map((port) => `${name} ${port.hostIp}:${port.published}->${port.target}/${port.protocol}`));
    expect(published.sort()).toEqual(['postgres 127.0.0.1:5432->5432/tcp', 'rabbitmq 127.0.0.1:5672->5672/tcp', 'redis 127.0.0.1:6379->6379/tcp']);
    for (const [name, service] of Object.entries(servers.services)) {
      expect(service.healthcheck?.test, `${name} has a healthcheck`).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
    }
    const volumeOf = (service: string, target: string) => mounts(servers.services[service]!).find((mount) => mount.target === target)?.source;
    expect([volumeOf('postgres', '/var/lib/postgresql/data'), volumeOf('rabbitmq', '/var/lib/rabbitmq'), volumeOf('redis', '/data')]).toEqual(['postgres-data', 'rabbitmq-data', 'redis-data']);
    // Named whatever the project is called: never another project's volumes.
    expect(Object.values(servers.volumes ?? {}).map((volume) => (volume as { name?: string }).name).sort()).toEqual(['smsq-servers-postgres-data', 'smsq-servers-rabbitmq-data', 'smsq-servers-redis-data']);
  });

  it("takes the logins npm start's defaults use: user postgres without a password, RabbitMQ's guest", () => {
    const servers = resolveCompose(SERVERS);
    expect(environmentOf(servers.services['postgres']!)).toEqual({ POSTGRES_USER: 'postgres', POSTGRES_HOST_AUTH_METHOD: 'trust' });
    expect(environmentOf(servers.services['rabbitmq']!)['RABBITMQ_DEFAULT_USER']).toBeUndefined();
  });

  it('is the file, the services and the ports the preflight (scripts/lib/servers.mjs) prints, in a project of its own', async () => {
    type Preflight = { SERVERS: { key: string; fallback: string; defaultPort: number }[]; SERVERS_COMPOSE_FILE: string; composeCommand: (path: string, services: string[]) => string };
    const preflight = (await import(pathToFileURL(join(repoRoot, 'scripts', 'lib', 'servers.mjs')).href)) as Preflight;
    expect(preflight.SERVERS_COMPOSE_FILE).toBe(SERVERS);
    const servers = resolveCompose(SERVERS);
    expect(preflight.SERVERS.map((server) => server.key).sort()).toEqual(Object.keys(servers.services).sort());
    for (const server of preflight.SERVERS) {
      const [port] = publishedPorts(servers.services[server.key]!);
      expect(new URL(server.fallback).port, server.key).toBe(port!.published);
      expect(server.defaultPort, server.key).toBe(port!.target);
    }
    // -p: the .env beside the file (make-env.sh) names the production project, whose services have the same names.
    expect(preflight.composeCommand('deploy/compose/servers.yml', ['postgres', 'redis'])).toBe('docker compose -f deploy/compose/servers.yml -p smsq-servers up -d postgres redis');
  });
});
