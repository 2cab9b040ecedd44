import pg from 'pg';

/** What the server enforces on each session of a pool (PostgreSQL's own settings, sent at connect). */
export interface SessionLimits {
  /** `statement_timeout`: the longest one statement (lock waits included) may run. */
  statementTimeoutMs: number;
  /** `idle_in_transaction_session_timeout`: how long a session may sit in an open transaction between statements. */
  idleInTransactionTimeoutMs: number;
}

const ANSWERING_WINDOW_MS = 10_000;
/** The client gives up on a query this long after the server would have cancelled it. */
export const QUERY_TIMEOUT_GRACE_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * A service's one-off clients before it starts (database creation, roles, migrations) wait longer:
 * a slow answer there stops the start, and a database busy with several services starting at once
 * may take a while, but a silent one must still not hang the start for ever.
 */
export const START_CONNECT_TIMEOUT_MS = 30_000;
/** Probes an idle connection after this long; the kernel's own probe count and interval decide when a dead peer is given up. */
const KEEP_ALIVE_DELAY_MS = 10_000;

/** Connection settings every client of smsq uses: a bounded connect and TCP keep-alive. */
export function boundedConnection(connectionString: string, connectTimeoutMs = CONNECT_TIMEOUT_MS): pg.ClientConfig {
  return { connectionString, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true, keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS };
}

/**
 * When a pool last had a query answered. A pool whose readiness check fails while its queries are
 * still answered is slow (load), not broken: liveness must not restart it then.
 */
export class PoolProgress {
  private lastAnswerAt = Number.NEGATIVE_INFINITY;

  answered(now = Date.now()): void {
    this.lastAnswerAt = now;
  }

  /** Whether a query was answered within the last 10 s: the pool is working, if slowly. */
  answering(now = Date.now()): boolean {
    return now - this.lastAnswerAt <= ANSWERING_WINDOW_MS;
  }
}

/**
 * pg's query time-out fails the query but keeps its connection, whose reply may never come; a
 * pool would hand that connection to the next caller, whose query would queue behind the lost one.
 * This client ends itself instead (pg destroys the socket of a client ended with a query still
 * open), so the pool drops it when it comes back.
 */
export class SessionWithDeadline extends pg.Client {
  /** The pool's, when it counts its answers (the pool hands every client its own options). */
  readonly progress: PoolProgress | undefined;

  constructor(config?: pg.ClientConfig & { progress?: PoolProgress }) {
    super(config);
    this.progress = config?.progress;
  }
}

const query = pg.Client.prototype.query;
SessionWithDeadline.prototype.query = function queryWithDeadline(this: SessionWithDeadline, ...args: unknown[]): unknown {
  const endIfTimedOut = (error: unknown) => {
    if (!error) return this.progress?.answered();
    if (error instanceof Error && error.message === 'Query read timeout') void this.end().catch(() => undefined);
  };
  const callback = args.at(-1);
  if (typeof callback === 'function') {
    args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
      endIfTimedOut(error);
      return callback(error, ...rest);
    };
    return Reflect.apply(query, this, args);
  }
  const result: unknown = Reflect.apply(query, this, args);
  if (result instanceof Promise) result.then(() => endIfTimedOut(undefined), endIfTimedOut);
  return result;
} as typeof query;

/** Whether the database answers a connection made afresh: the `reachable` side of a database check. */
export async function databaseAnswersAfresh(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ ...boundedConnection(databaseUrl, 2_000), query_timeout: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
