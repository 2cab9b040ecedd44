import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { boundedConnection, QUERY_TIMEOUT_GRACE_MS, SessionWithDeadline, type PoolProgress, type SessionLimits } from './session-limits.js';

export interface PgAdapterOptions {
  /** Upper bound of the adapter's connection pool. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so a connection can be traced to its service. */
  applicationName?: string;
  /** How long a statement and an open transaction may last; each service chooses its own (docs/guide/running.md). */
  limits?: SessionLimits;
  /** Told of every answered query, for liveness to tell a slow pool from a broken one. */
  progress?: PoolProgress;
}

/** For a pool whose service did not choose: short statements, short transactions. */
const DEFAULT_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 10_000, idleInTransactionTimeoutMs: 15_000 };

/**
 * The driver adapter a Prisma 7 client talks to Postgres through.
 *
 * Its sessions run in UTC: the adapter writes a DateTime as a UTC wall-clock time without offset
 * and reads a timestamptz as if its offset were +00:00, so on a server whose default time zone is
 * another, every stored instant would be shifted against `now()` (a task due at 10:00 UTC would
 * come due at 10:00 local time).
 *
 * Every wait is bounded, so a connection that goes silent (a dropped NAT mapping, a failover) costs
 * a few seconds instead of hanging the service: connecting, each query on the client (a little
 * longer than the server's own statement limit, so a live server cancels first and the
 * connection stays usable), and on the server a statement and a session idle inside a
 * transaction (whose locks would otherwise outlive a client that went silent). A connection whose
 * query timed out on the client is destroyed, never handed out again.
 */
export function createPgAdapter(databaseUrl: string, options: PgAdapterOptions = {}): PrismaPg {
  return prismaAdapterOn(createPgPool(databaseUrl, options));
}

/** The pool `createPgAdapter` makes, for a service that also sends raw SQL straight to it (`PgSql`). */
export function createPgPool(databaseUrl: string, options: PgAdapterOptions = {}): pg.Pool {
  const limits = options.limits ?? DEFAULT_SESSION_LIMITS;
  return new pg.Pool({
    ...boundedConnection(databaseUrl),
    max: options.maxConnections,
    application_name: options.applicationName,
    // Read committed whatever the database's default, so a transaction that needs it need not say so (one round trip fewer each).
    // `PgSql`'s prepared statements are planned for their values each time, as unnamed ones are: a plan
    // made once for any values could suit the values of the day badly (a claim's phone with a backlog).
    // No JIT: short statements whose estimated cost passes jit_above_cost (a claim, once many clients
    // have send windows) would spend milliseconds compiling what runs in a fraction of one.
    options: '-c TimeZone=UTC -c default_transaction_isolation=read\\ committed -c plan_cache_mode=force_custom_plan -c jit=off',
    statement_timeout: limits.statementTimeoutMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
    query_timeout: limits.statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS,
    // A statement goes out without waiting for the answer to the one before: the server still runs
    // them one after another, in the order sent, so a transaction's BEGIN, or a lock and the reads
    // it guards, cost one round trip instead of one each (`PgSql`; docs/performance.md).
    pipeline: true,
    Client: SessionWithDeadline,
    progress: options.progress,
  } as pg.PoolConfig);
}

/** Prisma's driver adapter on `pool`; disconnecting the client ends the pool. */
export function prismaAdapterOn(pool: pg.Pool): PrismaPg {
  return new PrismaPg(pool, { disposeExternalPool: true });
}
