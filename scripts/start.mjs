// `npm start`: builds what is not built, starts every service against the local Postgres,
// RabbitMQ and Redis, and on an empty database seeds a demo client and prints how to use it.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { Supervisor } from './lib/supervisor.mjs';
import { appFile, root } from './lib/workspace.mjs';

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

log(`smsq ${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}, Profile ${profile}: building (cached parts are skipped)…`);
const build = spawnSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '--output-style=stream-without-prefixes'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NX_DAEMON: 'false' } });
if (build.status !== 0) {
  log('the build failed; see above');
  process.exit(1);
}

const supervisor = new Supervisor({ cwd: root, env, log });
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

async function waitForReady(url) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log(`${url} did not answer ready within two minutes; are Postgres, RabbitMQ and Redis running? (it says what is missing)`);
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
