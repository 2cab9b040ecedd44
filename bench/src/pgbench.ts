import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { percentile } from './percentile.js';

const run = promisify(execFile);

export interface PgbenchRun {
  databaseUrl: string;
  script: string;
  clients: number;
  /** Either a duration or a number of transactions per client. */
  durationS?: number;
  transactionsPerClient?: number;
  variables?: Record<string, string | number>;
  /** Log every transaction's latency (`--log`) and answer their percentiles too. */
  logLatencies?: boolean;
}

export interface PgbenchResult {
  clients: number;
  transactions: number;
  failed: number;
  tps: number;
  latencyAverageMs: number;
  /** With `logLatencies`: percentiles of the transactions' latencies, in ms. */
  latency?: { count: number; p50Ms: number; p99Ms: number };
}

/** The pgbench command: PGBENCH names another binary; Debian's postgresql-client puts it here. */
export const PGBENCH = process.env['PGBENCH'] ?? '/usr/bin/pgbench';

/**
 * Runs one pgbench script with prepared statements (the cheapest way Postgres can be asked for the
 * work) and answers its throughput. pgbench runs in its own process on the same machine, as the
 * HTTP load generator does, so both compete for the same cores.
 */
export async function pgbench(options: PgbenchRun): Promise<PgbenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'smsq-pgbench-'));
  const scriptPath = join(dir, 'script.sql');
  writeFileSync(scriptPath, options.script);
  const args = ['--no-vacuum', '--protocol=prepared', `--client=${options.clients}`, `--jobs=${Math.min(2, options.clients)}`, `--file=${scriptPath}`];
  if (options.durationS !== undefined) args.push(`--time=${options.durationS}`);
  if (options.transactionsPerClient !== undefined) args.push(`--transactions=${options.transactionsPerClient}`);
  for (const [name, value] of Object.entries(options.variables ?? {})) args.push(`--define=${name}=${value}`);
  if (options.logLatencies) args.push('--log', `--log-prefix=${join(dir, 'transactions')}`);
  args.push(options.databaseUrl);
  try {
    const { stdout } = await run(PGBENCH, args, { maxBuffer: 16 * 1024 * 1024, timeout: 30 * 60_000, cwd: dir });
    const result = parse(stdout, options.clients);
    return options.logLatencies ? { ...result, latency: loggedLatencies(dir) } : result;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`pgbench failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Percentiles of the latencies in pgbench's transaction logs (`transactions.<pid>[.<thread>]`,
 * one line per transaction: client, transaction number, latency in µs, …).
 */
function loggedLatencies(dir: string): { count: number; p50Ms: number; p99Ms: number } {
  const micros = readdirSync(dir)
    .filter((name) => name.startsWith('transactions.'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => Number(line.split(' ')[2]));
  const ms = (value: number) => Math.round(value / 10) / 100;
  return { count: micros.length, p50Ms: ms(percentile(micros, 50)), p99Ms: ms(percentile(micros, 99)) };
}

function parse(stdout: string, clients: number): PgbenchResult {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(stdout);
    if (!match) throw new Error(`pgbench printed no ${pattern.source}:\n${stdout}`);
    return Number(match[1]);
  };
  return {
    clients,
    transactions: number(/number of transactions actually processed: (\d+)/),
    failed: /number of failed transactions: (\d+)/.test(stdout) ? number(/number of failed transactions: (\d+)/) : 0,
    tps: Math.round(number(/tps = ([\d.]+)/) * 10) / 10,
    latencyAverageMs: number(/latency average = ([\d.]+) ms/),
  };
}

/**
 * The database work of one create-task in Profile B, in one transaction and nothing else: the
 * account's row lock and debit, the charge and its ledger entry (billing), the pool's lock, the
 * least recently used gateway, its assignment and the task (dispatch). The same statements the
 * services send, minus every read that the services add for retries and redeliveries.
 */
export const CREATE_TASK_SQL = `
\\set client random(:first_client, :last_client)
BEGIN;
SELECT client_id, daily_remaining, bonus_remaining, period_started_at FROM "billing"."accounts" WHERE client_id = :client FOR UPDATE;
UPDATE "billing"."accounts" SET bonus_remaining = bonus_remaining - 1, updated_at = now() WHERE client_id = :client;
INSERT INTO "billing"."task_charges" (task_key, client_id, bucket, debited_at) VALUES (gen_random_uuid(), :client, 'bonus', now()) RETURNING task_key AS key \\gset
INSERT INTO "billing"."ledger_entries" (client_id, kind, bucket, amount, task_key, balance_after) VALUES (:client, 'debit', 'bonus', -1, :key, 0);
SELECT pg_advisory_xact_lock(hashtextextended('dispatch.pool:' || :client, 0));
SELECT id AS phone FROM "dispatch"."phones" WHERE kind = 'gateway' AND client_id = :client AND active ORDER BY last_assigned_at ASC NULLS FIRST, id LIMIT 1 FOR UPDATE \\gset
UPDATE "dispatch"."phones" SET last_assigned_at = clock_timestamp() WHERE id = :phone;
INSERT INTO "dispatch"."tasks" (task_key, client_id, phone_id, recipient, message, status, scheduled_at, scheduled_local, attempts)
  VALUES (:key, :client, :phone, '+381641234567', 'bench message', 'pending', now(), '2026-01-01 00:00:00', 0);
COMMIT;
`;

/** The claim statement dispatch runs for an unbound worker token (`FOR UPDATE SKIP LOCKED`), alone: scenario 3's baseline. */
const CLAIM_SQL = `
WITH next AS (
  SELECT t.id FROM "dispatch"."tasks" t JOIN "dispatch"."phones" p ON p.id = t.phone_id
   WHERE t.status = 'pending' AND t.scheduled_at <= now() AND p.active AND p.kind = 'gateway'
   ORDER BY t.scheduled_at, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
UPDATE "dispatch"."tasks" t
   SET status = 'claimed', attempts = t.attempts + 1, claimed_by_token_id = 1, claim_expires_at = now() + 300 * interval '1 second'
  FROM next, "dispatch"."phones" p
 WHERE t.id = next.id AND p.id = t.phone_id
RETURNING t.id AS task`;

export const CLAIM_ALONE_SQL = `${CLAIM_SQL};\n`;

/**
 * One delivery as dispatch does it for an unbound worker token: the claim (one statement, SKIP
 * LOCKED) and the report under the task's row lock.
 */
export const CLAIM_AND_REPORT_SQL = `${CLAIM_SQL} \\gset
BEGIN;
SELECT id, task_key, status::text, claimed_by_token_id FROM "dispatch"."tasks" WHERE id = :task FOR UPDATE;
UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now(), claim_expires_at = NULL WHERE id = :task;
COMMIT;
`;
