import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Stack, ProcessName } from '../stack.js';
import { sleep } from './chaos-http.js';

/** Every process the soak starts and judges, by service and copy. */
export const SOAK_PROCESSES: ProcessName[] = [
  'api-gateway', 'api-gateway#2', 'billing', 'billing#2', 'dispatch', 'dispatch#2', 'inbox', 'inbox#2',
  'dashboard', 'dashboard#2', 'worker', 'worker#2', 'gateway-sim', 'gateway-sim#2',
];

/** The tables retention must keep bounded. */
export const SOAK_TABLES = ['dispatch.outbox_messages', 'dispatch.webhook_deliveries', 'inbox.outbox_events'] as const;
export type SoakTable = (typeof SOAK_TABLES)[number];

/** The rows of each table retention keeps whatever their age, because they are not done with: a message not yet published, a delivery still to be tried. */
const NOT_DONE: Record<SoakTable, string> = {
  'dispatch.outbox_messages': 'published_at IS NULL',
  'dispatch.webhook_deliveries': "status = 'pending'",
  'inbox.outbox_events': 'published_at IS NULL',
};

/** One look at every process and table; a process not running, or a count the database could not give, is left out. */
export interface Sample {
  at: number;
  /** Resident memory (VmRSS) in kB and the pid it was read from, by process. */
  rss: Partial<Record<ProcessName, { pid: number; kb: number }>>;
  rows: Partial<Record<SoakTable, number>>;
  /** Of those, the rows not done with, which retention keeps whatever their age. */
  notDone: Partial<Record<SoakTable, number>>;
  /** The database's size on disk (pg_database_size), to set beside Postgres's shared_buffers. */
  databaseMb?: number;
  /** The machine's CPU time since boot (/proc/stat), all cores: busy and in all, in clock ticks. */
  cpu?: { busy: number; total: number };
}

function residentKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The first line of /proc/stat: idle and iowait are the idle ticks; every other column was busy. */
function machineCpu(): Sample['cpu'] {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((sum, tick) => sum + tick, 0);
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU time busy between the first and the last sample in [from, to]:
 * a soak's latency means little on a machine its own load keeps saturated, so every run says how
 * busy it was. Null with fewer than two samples.
 */
export function busyShare(samples: Sample[], from: number, to: number): number | null {
  const inSpan = samples.filter((sample) => sample.cpu && sample.at >= from && sample.at <= to);
  const first = inSpan[0]?.cpu;
  const last = inSpan.at(-1)?.cpu;
  if (!first || !last || last.total <= first.total) return null;
  return (last.busy - first.busy) / (last.total - first.total);
}

/** Every `everyMs`: each process's resident memory from /proc, and the tables' row counts read directly. */
export class Sampler {
  readonly samples: Sample[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(
    private readonly stack: Stack,
    private readonly databaseUrl: string,
    everyMs: number,
  ) {
    this.loop = this.run(everyMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(everyMs: number): Promise<void> {
    for (let next = Date.now(); this.running; next += everyMs) {
      await sleep(next - Date.now());
      if (!this.running) break;
      const at = Date.now();
      const cpu = machineCpu();
      const rss: Sample['rss'] = {};
      for (const name of SOAK_PROCESSES) {
        const pid = this.stack.pidOf(name);
        const kb = pid === undefined ? undefined : residentKb(pid);
        if (pid !== undefined && kb !== undefined) rss[name] = { pid, kb };
      }
      this.samples.push({ at, rss, ...(cpu ? { cpu } : {}), ...(await tableFigures(this.databaseUrl)) });
    }
  }
}

/** The tables' row counts and the database's size; while the database restarts, none. */
async function tableFigures(databaseUrl: string): Promise<Pick<Sample, 'rows' | 'notDone' | 'databaseMb'>> {
  const db = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3_000, query_timeout: 5_000 });
  // A restart of PostgreSQL drops the connection: its queries fail (no counts this time), and the error event must not end the run.
  db.on('error', () => undefined);
  try {
    await db.connect();
    const rows: Sample['rows'] = {};
    const notDone: Sample['notDone'] = {};
    for (const table of SOAK_TABLES) {
      const counts = (await db.query<{ all: string; not_done: string }>(`SELECT count(*) AS all, count(*) FILTER (WHERE ${NOT_DONE[table]}) AS not_done FROM ${table}`)).rows[0]!;
      rows[table] = Number(counts.all);
      notDone[table] = Number(counts.not_done);
    }
    const size = await db.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return { rows, notDone, databaseMb: Math.round(Number(size.rows[0]!.bytes) / 1_048_576) };
  } catch {
    return { rows: {}, notDone: {} };
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** The oldest row retention should have pruned, per table, in seconds since it was published or finished (null: none). */
export interface RetentionAges {
  'dispatch.outbox_messages': number | null;
  'inbox.outbox_events': number | null;
  'dispatch.webhook_deliveries': number | null;
}

/**
 * How long ago the oldest published outbox message (each outbox) and the oldest finished webhook
 * delivery were done with: a delivered one since its delivery; one failed for good since its
 * next_attempt_at, which the deliverer sets to the moment it failed for good.
 */
export async function retentionAges(databaseUrl: string): Promise<RetentionAges> {
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => undefined);
  await db.connect();
  try {
    const age = async (sql: string) => {
      const value = (await db.query<{ age: string | null }>(sql)).rows[0]?.age;
      return value === null || value === undefined ? null : Math.round(Number(value));
    };
    return {
      'dispatch.outbox_messages': await age(`SELECT extract(epoch FROM now() - min(published_at)) AS age FROM dispatch.outbox_messages WHERE published_at IS NOT NULL`),
      'inbox.outbox_events': await age(`SELECT extract(epoch FROM now() - min(published_at)) AS age FROM inbox.outbox_events WHERE published_at IS NOT NULL`),
      'dispatch.webhook_deliveries': await age(
        `SELECT extract(epoch FROM now() - min(CASE WHEN status = 'delivered' THEN coalesce(delivered_at, created_at) ELSE next_attempt_at END)) AS age FROM dispatch.webhook_deliveries WHERE status IN ('delivered', 'failed')`,
      ),
    };
  } finally {
    await db.end();
  }
}
