import { eventually, TEST_SERVER_URL } from '@smsq/testing';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { call, RequestTally, sleep } from './support/chaos/chaos-http.js';
import { ClientLoad, type ChaosClient } from './support/chaos/client-load.js';
import { ledgerViolations, unsettledWork } from './support/chaos/invariants.js';
import { PrivateInfra } from './support/private-infra.js';
import { query } from './support/sql.js';
import { Stack } from './support/stack.js';
import { registerPhone } from './support/worker-api.js';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The production compose file's backup service runs this very script (deploy/compose/docker-compose.yml, docs/guide/running.md). */
const BACKUP_SCRIPT = join(ROOT, 'deploy', 'compose', 'backup.sh');
const CLIENTS = 3;
/** Tasks answered before the dump starts: hundreds, so that a dump missing some cannot pass by luck. */
const TASKS_BEFORE_DUMP = 400;
const BULK_SIZE = 25;
/** Short leases, so that what was claimed when the dump was taken comes back within the test. */
const CLAIM_TIMEOUT_S = 8;
const STACK_ENV = { SMSQ_SETTLE_AFTER_S: '2', SMSQ_CLAIM_TIMEOUT_S: String(CLAIM_TIMEOUT_S) };
/** The database name of the production compose file, on the new server. */
const DATABASE = 'smsq';

interface DumpedTask {
  id: number;
  client_id: number;
  status: string;
  message: string;
  claim_expires_at: Date | null;
}

interface DumpedEntry {
  id: string;
  client_id: number;
  kind: string;
  bucket: string;
  amount: number;
  task_key: string | null;
  balance_after: number;
}

/** The script's connection: libpq's variables, from a server's URL. */
function libpqEnv(serverUrl: string, database: string, backupDir: string): NodeJS.ProcessEnv {
  const server = new URL(serverUrl);
  return {
    ...process.env,
    PGHOST: server.hostname,
    PGPORT: server.port || '5432',
    PGUSER: decodeURIComponent(server.username) || 'postgres',
    ...(server.password ? { PGPASSWORD: decodeURIComponent(server.password) } : {}),
    PGDATABASE: database,
    SMSQ_BACKUP_DIR: backupDir,
  };
}

const TASKS_SQL = `SELECT id, client_id, status::text AS status, message, claim_expires_at FROM dispatch.tasks WHERE client_id = ANY($1) ORDER BY id`;
const ENTRIES_SQL = `SELECT id::text, client_id, kind::text, bucket::text, amount, task_key::text, balance_after FROM billing.ledger_entries WHERE client_id = ANY($1) ORDER BY id`;
const BALANCES_SQL = `SELECT client_id, daily_remaining + bonus_remaining AS balance FROM billing.accounts WHERE client_id = ANY($1)`;

/**
 * Issue 19, item 5: a backup is only as good as its restore. smsq runs under load (creates, bulk
 * creates, claims and reports, replies, credit top-ups); while it does, the backup service's own
 * script takes a dump; the documented restore puts it on a new server (a PostgreSQL of the test's
 * own, where smsq's database roles do not exist, its `smsq` database already there and renamed
 * aside) beside a RabbitMQ and Redis that hold nothing of it (the machine's, under a namespace of
 * the restored stack's own, as every test stack has); smsq started there serves every task the dump holds
 * with its status and every balance, keeps every ledger entry, settles what was in flight when the
 * dump was taken, and the ledger invariant holds.
 */
describe('a backup taken under load, restored as docs/guide/running.md says', () => {
  let source: Stack | undefined;
  let restored: Stack | undefined;
  let newServer: Promise<PrivateInfra> | undefined;
  let backupDir: string | undefined;

  afterAll(async () => {
    await restored?.stop();
    await source?.stop();
    await newServer?.then((infra) => infra.stop(), () => undefined);
    if (backupDir) rmSync(backupDir, { recursive: true, force: true });
  });

  it('holds every task, balance and ledger entry of the moment it was taken, and smsq started on it serves them and settles', { timeout: 150_000 }, async () => {
    // The new server starts while the old one works.
    newServer = PrivateInfra.start({ servers: ['postgres'] });
    newServer.catch(() => undefined);
    source = await Stack.start({ profile: 'A', oneProcess: true, env: STACK_ENV });
    const sourceUrl = source.env['DATABASE_URL']!;
    const database = new URL(sourceUrl).pathname.slice(1);
    backupDir = mkdtempSync(join(tmpdir(), 'smsq-backups-'));

    const clients: ChaosClient[] = [];
    for (let index = 0; index < CLIENTS; index++) {
      const { clientId, apiKey } = await source.newClient({ phone: false });
      await source.adminOk('credits', 'grant', '--client', String(clientId), '--amount', '100000');
      const paired = await registerPhone(source, apiKey, { name: `phone ${index}`, device_id: `backup-${clientId}` });
      expect(paired.status).toBe(201);
      clients.push({ clientId, apiKey, phoneId: paired.body.phone_id, workerToken: paired.body.worker_token, deliversItself: true });
    }
    const clientIds = clients.map((client) => client.clientId);
    const keyOf = new Map(clients.map((client) => [client.clientId, client.apiKey]));

    // The load: the chaos run's mix (create-task, claims and reports with a share failed, replies), bulk creates and top-ups beside it.
    const tally = new RequestTally();
    const load = new ClientLoad(source.baseUrl, clients, tally, { failShare: 0.2, abandonShare: 0, createRetryMs: 10_000, createConcurrency: 2, pauseMs: 10 });
    const bulkIds: number[] = [];
    let loading = true;
    const bulkLoops = clients.map(async (client) => {
      for (let batch = 0; loading; batch++) {
        const tasks = Array.from({ length: BULK_SIZE }, (_, item) => ({ recipient: '+381641234567', message: `bulk ${client.clientId}/${batch}/${item}` }));
        const answer = await call(tally, 'create-tasks', source!.baseUrl, 'POST', '/smsapi/create-tasks', { headers: { 'x-api-key': client.apiKey }, body: { tasks } });
        if (answer.status === 200) for (const result of answer.body.results as { ok: boolean; id?: number }[]) if (result.ok) bulkIds.push(result.id!);
        await sleep(150);
      }
    });
    let grants = 0;
    const topUps = (async () => {
      while (loading) {
        await source!.adminOk('credits', 'grant', '--client', String(clientIds[grants % CLIENTS]), '--amount', '7');
        grants += 1;
        await sleep(200);
      }
    })();
    load.start();
    const answered = () => [...load.records.creates.flatMap((create) => create.createdIds), ...bulkIds];
    await eventually(() => expect(answered().length).toBeGreaterThanOrEqual(TASKS_BEFORE_DUMP), { timeoutMs: 60_000, intervalMs: 100 });

    // What smsq promised before the dump began is in its snapshot, whatever it promises while pg_dump runs.
    const promisedIds = new Set(answered());
    const reportedBefore = [...load.records.reports];
    const grantsBefore = grants;
    const dumpStartedAt = Date.now();
    const { stdout } = await run('sh', [BACKUP_SCRIPT, 'now'], { env: libpqEnv(TEST_SERVER_URL, database, backupDir) });
    const dumpMs = Date.now() - dumpStartedAt;
    const dumpFile = stdout.trim();
    expect(dumpFile).toMatch(/\/smsq-\d{8}T\d{6}Z\.dump$/);
    const createdDuringDump = answered().length - promisedIds.size;
    const answersDuringDump = Object.entries(tally.timings).map(([kind, timings]) => `${kind} ${timings.filter((timing) => timing.endedAt >= dumpStartedAt && timing.endedAt <= dumpStartedAt + dumpMs).length}`);
    // The load goes on past the dump: at least one create answered after it, which the dump cannot hold.
    await eventually(() => expect(answered().length).toBeGreaterThan(promisedIds.size + createdDuringDump), { timeoutMs: 30_000, intervalMs: 50 });
    loading = false;
    await Promise.all([...bulkLoops, topUps, load.stopCreating()]);
    await load.stopDelivering();
    expect(tally.answers['create-task']?.['500'] ?? 0).toBe(0);

    // Restore as the docs say, on the new server: smsq stopped, then the script restores into `smsq`, the one there renamed aside.
    await source.kill('services', 'SIGTERM');
    const infra = await newServer;
    const server = infra.databaseServerUrl;
    const restoredUrl = `${server}/${DATABASE}`;
    await query(`${server}/postgres`, `CREATE DATABASE ${DATABASE}`);
    expect(await query(`${server}/postgres`, `SELECT rolname FROM pg_roles WHERE rolname LIKE 'smsq%'`)).toEqual([]);
    await run('sh', [BACKUP_SCRIPT, 'restore', dumpFile], { env: libpqEnv(server, DATABASE, backupDir) });
    const aside = await query<{ datname: string }>(`${server}/postgres`, `SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${DATABASE}_before_restore_%`]);
    expect(aside, 'the database that was there is kept aside').toHaveLength(1);

    // What the dump holds, read from the restored database before smsq touches it.
    const dumped = await query<DumpedTask>(restoredUrl, TASKS_SQL, [clientIds]);
    const dumpedEntries = await query<DumpedEntry>(restoredUrl, ENTRIES_SQL, [clientIds]);
    const dumpedBalances = new Map((await query<{ client_id: number; balance: number }>(restoredUrl, BALANCES_SQL, [clientIds])).map((row) => [row.client_id, row.balance]));
    const kinds = new Set(dumpedEntries.map((entry) => entry.kind));
    expect(dumped.length).toBeGreaterThanOrEqual(TASKS_BEFORE_DUMP);
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['debit', 'grant', 'opening', 'refund']));
    expect(dumpedEntries.filter((entry) => entry.kind === 'grant').length).toBeGreaterThanOrEqual(CLIENTS + grantsBefore);
    expect(dumped.filter((task) => task.status === 'sent').length).toBeGreaterThan(0);
    expect(dumpedBalances.size).toBe(CLIENTS);
    const [inFlight] = await query<{ held: number; outbox: number }>(
      restoredUrl,
      `SELECT (SELECT count(*)::int FROM billing.task_charges WHERE state = 'held') AS held, (SELECT count(*)::int FROM dispatch.outbox_messages WHERE published_at IS NULL) AS outbox`,
    );

    const dumpedById = new Map(dumped.map((task) => [task.id, task]));
    const missing = [...promisedIds].filter((id) => !dumpedById.has(id));
    expect(missing, 'tasks answered 201 before the dump began').toEqual([]);
    const reportLost = reportedBefore.filter((report) => dumpedById.get(report.taskId)?.status !== report.status);
    expect(reportLost, 'reports answered 200 before the dump began').toEqual([]);
    // Nothing in the dump that the running system did not have, and the system went on after it: the dump was taken mid-load.
    const finalSource = new Map((await query<DumpedTask>(sourceUrl, TASKS_SQL, [clientIds])).map((task) => [task.id, task]));
    expect(dumped.filter((task) => finalSource.get(task.id)?.message !== task.message || finalSource.get(task.id)?.client_id !== task.client_id)).toEqual([]);
    expect(finalSource.size).toBeGreaterThan(dumped.length);

    // smsq on the new server, nothing of its own in RabbitMQ and Redis.
    restored = await Stack.start({ profile: 'A', oneProcess: true, env: { ...STACK_ENV, ...infra.envFor(DATABASE) } });
    // The restore left owners and grants out; each service made its role on this server and took its schema back as it started.
    const owners = await query<{ schemaname: string; tableowner: string }>(restoredUrl, `SELECT DISTINCT schemaname, tableowner FROM pg_tables WHERE schemaname IN ('gateway', 'billing', 'dispatch', 'inbox') ORDER BY 1`);
    expect(owners.map((row) => `${row.schemaname}: ${row.tableowner}`)).toEqual(['billing: smsq_billing', 'dispatch: smsq_dispatch', 'gateway: smsq_gateway', 'inbox: smsq_inbox']);
    const served: { id: number; status: number; taskStatus: string | undefined; answeredAt: number }[] = [];
    for (let start = 0; start < dumped.length; start += 25) {
      served.push(
        ...(await Promise.all(
          dumped.slice(start, start + 25).map(async (task) => {
            const answer = await restored!.http('GET', `/smsapi/tasks/${task.id}`, { headers: { 'x-api-key': keyOf.get(task.client_id)! } });
            return { id: task.id, status: answer.status, taskStatus: answer.body?.status as string | undefined, answeredAt: Date.now() };
          }),
        )),
      );
    }
    // A claim is the one thing time changes by itself: one whose lease ran out by the time its answer came is waiting again.
    const statusDiffers = served.filter(({ id, status, taskStatus, answeredAt }) => {
      const task = dumpedById.get(id)!;
      const leaseOver = task.status === 'claimed' && task.claim_expires_at !== null && task.claim_expires_at.getTime() <= answeredAt;
      return status !== 200 || !(taskStatus === task.status || (leaseOver && taskStatus === 'pending'));
    });
    const dumpedAs = (answer: (typeof served)[number]) => {
      const task = dumpedById.get(answer.id)!;
      return { ...answer, dumped: task.status, leaseEndedAt: task.claim_expires_at?.getTime() };
    };
    expect(statusDiffers.map(dumpedAs), 'tasks served with the status the dump holds').toEqual([]);

    // The phones come back with the tokens the dump holds and deliver what waits; what was in flight settles.
    const drain = new ClientLoad(restored.baseUrl, clients, new RequestTally(), { failShare: 0.2, abandonShare: 0, createRetryMs: 10_000, createConcurrency: 0, pauseMs: 0 });
    drain.start();
    await drain.stopCreating();
    await eventually(
      async () => {
        const left = await unsettledWork(restored!.env['DATABASE_URL']!, clientIds);
        if (left.length > 0) throw new Error(`not settled: ${left.join(', ')}`);
      },
      { timeoutMs: (CLAIM_TIMEOUT_S + 30) * 1000, intervalMs: 500 },
    );
    await drain.stopDelivering();
    expect(drain.records.claims.length).toBeGreaterThan(0);

    // Every ledger entry of the dump is still there as it was; smsq only added refunds (and a refill, should a day turn).
    const entriesNow = await query<DumpedEntry>(restoredUrl, ENTRIES_SQL, [clientIds]);
    const nowById = new Map(entriesNow.map((entry) => [entry.id, entry]));
    expect(dumpedEntries.filter((entry) => JSON.stringify(nowById.get(entry.id)) !== JSON.stringify(entry))).toEqual([]);
    const dumpedIds = new Set(dumpedEntries.map((entry) => entry.id));
    const added = entriesNow.filter((entry) => !dumpedIds.has(entry.id));
    expect(added.filter((entry) => entry.kind !== 'refund' && entry.kind !== 'refill')).toEqual([]);
    // Each balance, through the services, is the dump's plus exactly what was added since.
    for (const clientId of clientIds) {
      const addedSum = added.filter((entry) => entry.client_id === clientId).reduce((sum, entry) => sum + entry.amount, 0);
      expect(await restored.credits(clientId), `client ${clientId}'s balance`).toBe(dumpedBalances.get(clientId)! + addedSum);
    }
    const db = new pg.Client({ connectionString: restored.env['DATABASE_URL']! });
    await db.connect();
    try {
      expect(await ledgerViolations(db, clientIds)).toEqual([]);
    } finally {
      await db.end();
    }
    // For the report: how much the dump held and how long it took.
    console.log(
      `dump: ${dumped.length} tasks (${createdDuringDump} more answered while pg_dump ran for ${dumpMs} ms; answers meanwhile: ${answersDuringDump.join(', ')}), ${dumpedEntries.length} ledger entries, ` +
        `in flight ${inFlight!.held} held charges and ${inFlight!.outbox} unpublished outbox messages; ` +
        `after the restore smsq served them all, settled ${added.length} refunds and delivered ${drain.records.reports.length} tasks`,
    );
  });
});
