/** Node socket errors: the server is not there, or the connection to it broke. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Prisma's codes for a database it cannot reach, lost, or has no connection for, and for a transaction it could not start or finish in time. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
/** How Prisma's driver adapter names a lost or unreachable database. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/**
 * SQLSTATE: connection exceptions (08…), the server shutting down or starting (57P01–57P03), too
 * many connections, a statement cancelled by `statement_timeout` (57014) and a session ended by
 * `idle_in_transaction_session_timeout` (25P03).
 */
const OUTAGE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300|57014|25P03)$/;
/**
 * The same, as pg, Prisma, ioredis and `PgSql`'s transactions word it; the time-outs are those of a
 * connection gone silent. A prepared statement a migration outlived fails once per connection,
 * which is then dropped: retried, it runs on a fresh one.
 */
const OUTAGE_MESSAGE =
  /Connection terminated|Connection is closed|server closed the connection|Can't reach database server|encountered a connection error|Query read timeout|timeout expired|timeout exceeded when trying to connect|Client was closed and is not queryable|Command timed out|Socket timeout|ran past its time-out|cached plan must not change result type/i;

/**
 * Whether an error means that Postgres, Redis or the broker is down or was lost mid-request: a
 * condition to retry later (503 `unavailable`), not a bug. Drivers wrap their causes differently
 * (Prisma keeps the adapter's error a few levels down), so the whole error is searched.
 */
export function isInfrastructureOutage(error: unknown): boolean {
  const seen = new Set<object>();
  const search = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 5) return false;
    seen.add(value);
    const fields = value as Record<string, unknown>;
    for (const code of [fields['code'], fields['originalCode']]) {
      if (typeof code !== 'string') continue;
      if (SOCKET_CODES.has(code) || PRISMA_CODES.has(code) || OUTAGE_SQLSTATE.test(code)) return true;
    }
    if (typeof fields['kind'] === 'string' && ADAPTER_KINDS.has(fields['kind'])) return true;
    if (typeof fields['message'] === 'string' && OUTAGE_MESSAGE.test(fields['message'])) return true;
    return [...Object.values(fields), (value as { cause?: unknown }).cause].some((child) => search(child, depth + 1));
  };
  return search(error, 0);
}
