// `npm start`: checks PostgreSQL, RabbitMQ and Redis (starting a local one that is installed but
// stopped, naming one that is missing), builds what is not built, starts every service, and on an
// empty database seeds a demo client and prints how to use it. `npm start -- --help` says so.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { exitAfterOutput, preflight } from './lib/servers.mjs';
import { Supervisor } from './lib/supervisor.mjs';
import { appFile, root } from './lib/workspace.mjs';

const HELP = `npm start: smsq on this machine, every service in this terminal (Ctrl-C stops them all).

What it does, in order:
  1. checks PostgreSQL, RabbitMQ and Redis where the settings below point, one line each; starts
     a local one that is installed here but stopped; names one that is missing, with the commands
     to get it (apt, Homebrew, Docker), and stops there
  2. builds what is not built (cached parts are skipped)
  3. starts the API, billing, dispatch, inbox, SMPP and the dashboard, in one Node process
     (SMSQ_PROCESSES=many: a process each), restarted when one crashes; each creates the database
     if it is missing and applies its migrations to its own schema as it starts
  4. the demo, on an empty database: a demo client with an API key and a phone, a dashboard
     admin, the gateway simulator and a worker delivering through it; it prints a curl to try

Settings (environment variables; an empty value counts as unset):
  SMSQ_PROFILE              A: clients pair their own phones; B: pooled gateways      (A)
  SMSQ_PROCESSES            one or many                                               (one)
  SMSQ_DEMO                 true or false: seed and run the demo                      (true)
  DATABASE_URL              PostgreSQL    (postgresql://postgres@127.0.0.1:5432/smsq)
  AMQP_URL                  RabbitMQ      (amqp://guest:guest@127.0.0.1:5672)
  REDIS_URL                 Redis         (redis://127.0.0.1:6379)
  PORT                      the API, with its reference at /docs                      (3000)
  DASHBOARD_PORT            the dashboard                                             (3001)
  DASHBOARD_PUBLIC_API_URL  the API address users and the pairing QR code get; one the
                            phones can reach      (SMSQ_BASE_URL, else http://localhost:$PORT)
  SMSQ_SMPP_PORT            where SMPP clients bind                                   (2775)
  BILLING_PORT, DISPATCH_PORT, INBOX_PORT, SMPP_HTTP_PORT
                            the other services' /healthz and /metrics          (3011 to 3014)
  GATEWAY_SIM_PORT          the demo's gateway simulator                              (3020)

Every setting of every service: docs/reference/configuration.md
`;
if (process.argv.slice(2).some((arg) => ['--help', '-h', 'help'].includes(arg))) {
  process.stdout.write(HELP);
  process.exit(0);
}

const env = {
  SMSQ_PROFILE: 'A',
  SMSQ_DEMO: 'true',
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/smsq',
  PORT: '3000',
  ...process.env,
};
// Empty counts as unset, as the services read it.
const profile = (env.SMSQ_PROFILE.trim() || 'A').toUpperCase();
const simUrl = `http://127.0.0.1:${env.GATEWAY_SIM_PORT ?? 3020}`;
const demo = /^(true|1|yes)$/i.test(env.SMSQ_DEMO);
const baseUrl = `http://localhost:${env.PORT}`;
const dashboardUrl = `http://localhost:${env.DASHBOARD_PORT ?? 3001}`;

function log(line) {
  process.stdout.write(`smsq       | ${line}\n`);
}

// Before anything else: the servers, one line each; a missing one is named with how to get it, once.
if (!(await preflight('npm start', env, { startStopped: true, line: log }))) await exitAfterOutput(1);
/**
 * Whether the servers are all still there; when not, the lines and the message are printed, once
 * (a server gone while smsq starts). The supervisor and waitForReady may ask together: one look.
 */
let serversLook;
let serversGone = false;
const serversThere = () =>
  serversGone
    ? Promise.resolve(false)
    : (serversLook ??= preflight('npm start', env, { quiet: true, line: log })
        .then((there) => ((serversGone = !there), there))
        .finally(() => (serversLook = undefined)));

log(`smsq ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}, Profile ${profile}: building (cached parts are skipped)…`);
const build = spawnSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '--output-style=stream-without-prefixes'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
if (build.status !== 0) {
  log('the build failed; see above');
  process.exit(1);
}

// A service that exits before it was ever ready may have lost a server: then the message, not a restart.
const supervisor = new Supervisor({ cwd: root, env, log, beforeRestart: serversThere });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void supervisor.stop(0));
const SERVICES = ['billing', 'dispatch', 'inbox', 'smpp', 'api-gateway', 'dashboard'];
// One process holds every service unless asked otherwise: about 200 MB instead of about 1 GB.
const processes = (env.SMSQ_PROCESSES ?? '').trim().toLowerCase() || 'one';
if (!['one', 'many'].includes(processes)) {
  log(`SMSQ_PROCESSES must be one or many, got ${JSON.stringify(env.SMSQ_PROCESSES)}`);
  process.exit(78);
}
const HEALTH_PORTS = { billing: env.BILLING_PORT ?? 3011, dispatch: env.DISPATCH_PORT ?? 3012, inbox: env.INBOX_PORT ?? 3013, smpp: env.SMPP_HTTP_PORT ?? 3014, 'api-gateway': env.PORT, dashboard: env.DASHBOARD_PORT ?? 3001 };
const healthUrls = (...services) => ({ healthUrls: services.map((service) => `http://127.0.0.1:${HEALTH_PORTS[service]}/healthz`) });
if (processes === 'one') supervisor.start('services', ['scripts/one-process.mjs', ...SERVICES], {}, healthUrls(...SERVICES));
else for (const service of SERVICES) supervisor.start(service, [appFile(service)], {}, healthUrls(service));

await waitForReady(`${baseUrl}/readyz`);
await waitForReady(`${dashboardUrl}/readyz`);
if (demo) {
  const seeded = await seedDemo();
  if (seeded?.worker_token) {
    // The demo delivers for real: a worker polls with the phone's (or pool's) token and sends through the simulator.
    supervisor.start('gateway-sim', [appFile('gateway-sim')], { GATEWAY_SIM_WORKER_TOKEN: seeded.sim_token, GATEWAY_SIM_REPLY_RATE: env.GATEWAY_SIM_REPLY_RATE ?? '0.3', SMSQ_BASE_URL: baseUrl });
    // The worker's first delivery must find the simulator listening.
    await waitForReady(`${simUrl}/readyz`);
    supervisor.start('worker', [appFile('worker'), 'run'], { WORKER_TOKEN: seeded.worker_token, SMSQ_BASE_URL: baseUrl });
  }
}
log(`ready: the API at ${baseUrl}, the dashboard at ${dashboardUrl}, SMPP on port ${env.SMSQ_SMPP_PORT ?? 2775}  (Ctrl-C stops everything)`);

/**
 * Waits for `url` to answer ready. Every 10 s without an answer, the servers are looked at again:
 * a service whose Redis went away waits for it without exiting, so only this look can tell.
 */
async function waitForReady(url) {
  const started = Date.now();
  const deadline = started + 120_000;
  let nextLook = started + 10_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() >= nextLook) {
      if (!(await serversThere())) return void (await supervisor.stop(1));
      nextLook = Date.now() + 10_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log(`${url} did not answer ready within two minutes (the services' lines above say why)`);
  await supervisor.stop(1);
}

function admin(...args) {
  const output = execFileSync(process.execPath, [appFile('admin'), ...args], { cwd: root, env, encoding: 'utf8' });
  return JSON.parse(output);
}

async function seedDemo() {
  const demoFile = join(root, '.smsq', `demo-${profile}.json`);
  const client = new pg.Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  await client.connect();
  const { rows } = await client.query('SELECT count(*)::int AS clients FROM "gateway"."clients"');
  await client.end();
  let seeded;
  if (rows[0].clients === 0) {
    const { client_id } = admin('client', 'create', '--name', 'Demo client');
    const { api_key } = admin('key', 'create', '--client', String(client_id));
    if (profile === 'A') {
      // As the gateway app would after scanning the key: its phone delivers through the simulator.
      const response = await fetch(`${baseUrl}/smsapi/register-phone`, {
        method: 'POST',
        headers: { 'X-API-Key': api_key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Demo phone', device_id: 'demo-phone', url: simUrl }),
        signal: AbortSignal.timeout(15_000),
      });
      const { worker_token } = await response.json();
      seeded = { client_id, api_key, worker_token, sim_token: worker_token };
    } else {
      const { phone_id } = admin('gateway', 'create', '--name', 'Demo gateway', '--url', simUrl);
      const { worker_token } = admin('worker-token', 'create');
      const { worker_token: sim_token } = admin('worker-token', 'create', '--phone', String(phone_id));
      seeded = { client_id, api_key, worker_token, sim_token };
    }
    const adminEmail = 'admin@smsq.local';
    const adminPassword = randomBytes(12).toString('base64url');
    admin('admin', 'create', '--email', adminEmail, '--password', adminPassword);
    seeded = { ...seeded, admin_email: adminEmail, admin_password: adminPassword };
    mkdirSync(dirname(demoFile), { recursive: true });
    writeFileSync(demoFile, `${JSON.stringify(seeded, null, 2)}\n`, { mode: 0o600 });
    log(`seeded a demo client (id ${client_id}) with an API key and a ${profile === 'A' ? 'phone' : 'gateway'}`);
  } else if (existsSync(demoFile)) {
    seeded = JSON.parse(readFileSync(demoFile, 'utf8'));
  }
  if (!seeded) {
    log('the database has clients already; create a key with: npm run --silent admin -- key create --client <id>');
    return undefined;
  }
  if (seeded.admin_email) log(`dashboard: ${dashboardUrl}  sign in as ${seeded.admin_email} / ${seeded.admin_password}  (or sign up as a new client)`);
  log('queue an SMS with:');
  process.stdout.write(
    `\n  curl -s -X POST ${baseUrl}/smsapi/create-task -H 'X-API-Key: ${seeded.api_key}' -H 'Content-Type: application/json' -d '{"recipient": "+381641234567", "message": "Hello from smsq"}'\n\n` +
      `  and follow it (the demo worker delivers it through the gateway simulator within a second or two):\n\n` +
      `  curl -s ${baseUrl}/smsapi/tasks/<id> -H 'X-API-Key: ${seeded.api_key}'\n\n`,
  );
  return seeded;
}
