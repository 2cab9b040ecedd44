// `node deploy/measure-memory.mjs`: the resident memory each service needs, for the resource
// requests and limits in deploy/k8s. Starts the built services one process each (as a pod runs
// them) under a database, broker namespace and ports of its own, reads every process's VmRSS at
// rest, under create-task load, while workers drain the backlog (the reference worker among them),
// and while the dashboard serves signed-in pages, then stops them and drops its database. The smpp service is measured
// beside them but takes no SMPP binds here: its figures are those of an idle SMPP server. Needs `npm run build` first and the
// local PostgreSQL, RabbitMQ and Redis (the README's defaults). Prints one JSON object.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { appFile, root } from '../scripts/lib/workspace.mjs';

const id = process.env.MEASURE_ID ?? 'k8smeasure';
const serverUrl = process.env.MEASURE_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432';
const seconds = Number(process.env.MEASURE_SECONDS ?? 30);
const connections = Number(process.env.MEASURE_CONNECTIONS ?? 64);
const ports = { gateway: 3100, dashboard: 3101, billing: 3111, dispatch: 3112, inbox: 3113, smpp: 3114 };
const env = {
  ...process.env,
  NODE_ENV: 'production',
  SMSQ_LOG_FORMAT: 'json',
  SMSQ_PROFILE: 'B',
  SMSQ_DEMO: 'false',
  SMSQ_RATE_LIMIT_RPS: '0',
  SMSQ_NAMESPACE: id,
  DATABASE_URL: `${serverUrl}/smsq_${id}`,
  PORT: String(ports.gateway),
  DASHBOARD_PORT: String(ports.dashboard),
  BILLING_PORT: String(ports.billing),
  DISPATCH_PORT: String(ports.dispatch),
  INBOX_PORT: String(ports.inbox),
  SMPP_HTTP_PORT: String(ports.smpp),
  // Not 2775: a local smsq may hold it.
  SMSQ_SMPP_PORT: process.env.MEASURE_SMPP_PORT ?? '3775',
  DASHBOARD_SECRET: 'measure-memory-secret-of-at-least-32-characters',
  DASHBOARD_PUBLIC_URL: `http://127.0.0.1:${ports.dashboard}`,
  DASHBOARD_PUBLIC_API_URL: `http://127.0.0.1:${ports.gateway}`,
};
const SERVICES = { billing: 'billing', dispatch: 'dispatch', inbox: 'inbox', smpp: 'smpp', gateway: 'api-gateway', dashboard: 'dashboard' };
const api = `http://127.0.0.1:${ports.gateway}`;
const children = {};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((row) => row.startsWith('VmRSS:'));
  return Math.round(Number(line.split(/\s+/)[1]) / 1024);
}

function sample() {
  return Object.fromEntries(Object.entries(children).map(([name, child]) => [name, rssMb(child.pid)]));
}

/** Samples every 500 ms while `work` runs; answers the peak of each process and of their sum. */
async function peakDuring(work) {
  const peak = {};
  let sumPeak = 0;
  const timer = setInterval(() => {
    const now = sample();
    for (const [name, mb] of Object.entries(now)) peak[name] = Math.max(peak[name] ?? 0, mb);
    sumPeak = Math.max(sumPeak, Object.values(now).reduce((a, b) => a + b, 0));
  }, 500);
  const result = await work();
  clearInterval(timer);
  return { peak: { ...peak, all: sumPeak }, result };
}

async function waitReady(port) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(500);
  }
  throw new Error(`port ${port} not ready within two minutes`);
}

function admin(...args) {
  return JSON.parse(execFileSync(process.execPath, [appFile('admin'), ...args], { cwd: root, env, encoding: 'utf8' }));
}

/** `connections` loops calling `once` until `until()` says stop; answers how many calls succeeded. */
async function loop(count, once, until) {
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (!until()) {
        if (await once().catch(() => false)) done += 1;
        else failed += 1;
      }
    }),
  );
  return { done, failed };
}

async function main() {
  for (const [name, app] of Object.entries(SERVICES)) {
    children[name] = spawn(process.execPath, [appFile(app)], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  await Promise.all(Object.values(ports).map(waitReady));

  const { client_id } = admin('client', 'create', '--name', 'measure');
  const { api_key } = admin('key', 'create', '--client', String(client_id));
  admin('gateway', 'create', '--name', 'measure-gw', '--url', 'http://127.0.0.1:9', '--client', String(client_id));
  admin('credits', 'grant', '--client', String(client_id), '--amount', '10000000');
  const { worker_token } = admin('worker-token', 'create');
  const email = 'measure@smsq.local';
  const password = 'measure-password-1';
  admin('admin', 'create', '--email', email, '--password', password);
  // The reference worker polls with its own token; the gateway URL answers nothing, so what it claims fails and is refunded.
  const { worker_token: ownToken } = admin('worker-token', 'create');
  children.worker = spawn(process.execPath, [appFile('worker'), 'run'], { cwd: root, env: { ...env, WORKER_TOKEN: ownToken, SMSQ_BASE_URL: api, WORKER_CONCURRENCY: '4' }, stdio: ['ignore', 'ignore', 'inherit'] });

  await sleep(15_000);
  const atRest = sample();

  const body = JSON.stringify({ recipient: '+381641234567', message: 'measure' });
  const queueEnd = Date.now() + seconds * 1000;
  const queue = await peakDuring(() =>
    loop(connections, async () => {
      const response = await fetch(`${api}/smsapi/create-task`, { method: 'POST', headers: { 'X-API-Key': api_key, 'Content-Type': 'application/json' }, body });
      await response.arrayBuffer();
      return response.status === 201;
    }, () => Date.now() > queueEnd),
  );

  const deliverStart = Date.now();
  let empty = 0;
  const deliver = await peakDuring(() =>
    loop(32, async () => {
      const claim = await fetch(`${api}/smsapi/pending-tasks`, { headers: { 'X-Worker-Token': worker_token } }).then((r) => r.json());
      if (!claim.id) {
        empty += 1;
        return false;
      }
      const report = await fetch(`${api}/smsapi/task-status`, { method: 'POST', headers: { 'X-Worker-Token': worker_token, 'Content-Type': 'application/json' }, body: JSON.stringify({ id: claim.id, status: 'sent' }) });
      await report.arrayBuffer();
      return report.ok;
    }, () => empty > 64 || Date.now() - deliverStart > 10 * seconds * 1000),
  );
  const deliverSeconds = (Date.now() - deliverStart) / 1000;

  const dashboardBase = `http://127.0.0.1:${ports.dashboard}`;
  const cookieOf = (response) => (response.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  const preSession = await fetch(`${dashboardBase}/api/auth/session`);
  const { csrfToken } = await preSession.json();
  const signIn = await fetch(`${dashboardBase}/api/auth/signin`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken, cookie: cookieOf(preSession) }, body: JSON.stringify({ email, password }) });
  const cookie = cookieOf(signIn) || cookieOf(preSession);
  const dashboardEnd = Date.now() + (seconds / 2) * 1000;
  const dashboard = await peakDuring(() =>
    loop(8, async () => {
      const pages = await Promise.all(['/', '/api/admin/system', '/api/admin/clients'].map((path) => fetch(`${dashboardBase}${path}`, { headers: { cookie } })));
      await Promise.all(pages.map((page) => page.arrayBuffer()));
      return signIn.ok && pages.every((page) => page.ok);
    }, () => Date.now() > dashboardEnd),
  );

  await sleep(10_000);
  const afterLoad = sample();
  return {
    at: new Date().toISOString(),
    loadAverage: readFileSync('/proc/loadavg', 'utf8').trim(),
    rssMb: { atRest, queuePeak: queue.peak, deliverPeak: deliver.peak, dashboardPeak: dashboard.peak, tenSecondsAfter: afterLoad },
    queue: { connections, seconds, created: queue.result.done, failed: queue.result.failed, perSecond: Math.round(queue.result.done / seconds) },
    deliver: { workers: 32, seconds: Math.round(deliverSeconds), delivered: deliver.result.done, perSecond: Math.round(deliver.result.done / deliverSeconds) },
    dashboard: { signInsAndPages: dashboard.result.done, failed: dashboard.result.failed },
  };
}

async function stop() {
  await Promise.all(
    Object.values(children).map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  const maintenance = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await maintenance.connect();
  await maintenance.query(`DROP DATABASE IF EXISTS "smsq_${id}" WITH (FORCE)`);
  await maintenance.end();
}

try {
  process.stdout.write(`${JSON.stringify(await main(), null, 2)}\n`);
} finally {
  await stop();
}
