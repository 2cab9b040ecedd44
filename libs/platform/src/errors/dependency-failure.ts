/** A server smsq needs, as its configuration names it. */
export interface Dependency {
  kind: 'PostgreSQL' | 'RabbitMQ' | 'Redis';
  url: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'postgres:': '5432', 'postgresql:': '5432', 'amqp:': '5672', 'amqps:': '5671', 'redis:': '6379', 'rediss:': '6379' };

/** Node's socket and resolver codes for a server that cannot be reached, in the words `npm start`'s check uses (scripts/lib/servers.mjs). */
const UNREACHABLE_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'no route to the host',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection lost',
};

/** The same, as the drivers word them without a code: pg's and amqplib's connect time-outs, ioredis's silent socket, connections closed under them. */
const UNREACHABLE_MESSAGES: Array<[RegExp, string]> = [
  [/^timeout expired$|connection timeout|^connect ETIMEDOUT$|^Socket timeout/i, 'timed out'],
  [/^Connection terminated unexpectedly$|^Unexpected close$|^Socket closed abruptly|^Connection is closed\.?$/i, 'connection lost'],
];

/** How pg alone words a connect time-out and a connection lost under it, neither of which names the server. */
const PG_OWN_WORDING = /^timeout expired$|^Connection terminated unexpectedly$/;

/**
 * SQLSTATE 28P01 (invalid_password) and 28000 (invalid_authorization_specification); a pg
 * `DatabaseError` also carries the server's `severity`, which tells it apart from other codes.
 */
const POSTGRES_LOGIN_CODES = new Set(['28P01', '28000']);

/** `host:port` of a server's URL, the scheme's port when it names none; never its user or password. */
export function serverAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || (DEFAULT_PORTS[parsed.protocol] ?? '?')}`;
}

/**
 * One line for an error that says a server is not there, does not answer, or refused the login,
 * e.g. `PostgreSQL at 127.0.0.1:5499 is not reachable (connection refused)` or `RabbitMQ at
 * 127.0.0.1:5672 refused the login of user "guest": wrong user or password`. Undefined for any
 * other error: a bug keeps its stack trace. No password is ever part of the line.
 */
export function describeDependencyFailure(error: unknown, dependency: Dependency): string | undefined {
  const where = `${dependency.kind} at ${serverAddress(dependency.url)}`;
  const errors = causesOf(error);
  for (const each of errors) {
    const refusal = loginRefusal(each, dependency);
    if (refusal) return `${where} ${refusal}`;
  }
  for (const each of errors) {
    const reason = unreachableReason(each);
    if (reason) return `${where} is not reachable (${reason})`;
  }
  return undefined;
}

/**
 * The line for an error that escaped a service's start, naming the server it came from: the one
 * the error names by port or host, or whose driver alone words it so (a login refusal, pg's
 * connect time-out or lost connection). Undefined when the error is no such failure, or names
 * none of them.
 */
export function describeStartFailure(error: unknown, dependencies: Dependency[]): string | undefined {
  const from = dependencies.find((dependency) => comesFrom(error, dependency));
  return from && describeDependencyFailure(error, from);
}

function comesFrom(error: unknown, dependency: Dependency): boolean {
  const url = new URL(dependency.url);
  const port = url.port || DEFAULT_PORTS[url.protocol];
  return causesOf(error).some((each) => {
    if (loginRefusal(each, dependency)) return true;
    if (each.port !== undefined) return String(each.port) === port;
    if (typeof each.hostname === 'string') return each.hostname === url.hostname;
    return dependency.kind === 'PostgreSQL' && typeof each.message === 'string' && PG_OWN_WORDING.test(each.message);
  });
}

interface ErrorFields {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
  port?: unknown;
  hostname?: unknown;
}

/** The error and what it wraps: `cause` (Prisma, pg-pool), `err` (amqp-connection-manager's events), an AggregateError's attempts (a name with several addresses). */
function causesOf(error: unknown): ErrorFields[] {
  const found: ErrorFields[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || depth > 4 || found.includes(value as ErrorFields)) return;
    found.push(value as ErrorFields);
    const fields = value as { cause?: unknown; err?: unknown; errors?: unknown };
    visit(fields.cause, depth + 1);
    visit(fields.err, depth + 1);
    if (Array.isArray(fields.errors)) for (const each of fields.errors) visit(each, depth + 1);
  };
  visit(error, 0);
  return found;
}

function unreachableReason(error: ErrorFields): string | undefined {
  if (typeof error.code === 'string' && UNREACHABLE_CODES[error.code]) return UNREACHABLE_CODES[error.code];
  if (typeof error.message !== 'string') return undefined;
  const message = error.message;
  return UNREACHABLE_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

/** What follows `<server> at <address>` when the server refused the login, or undefined. */
function loginRefusal(error: ErrorFields, dependency: Dependency): string | undefined {
  const message = typeof error.message === 'string' ? error.message : '';
  switch (dependency.kind) {
    case 'PostgreSQL': {
      if (typeof error.severity !== 'string' || typeof error.code !== 'string' || !POSTGRES_LOGIN_CODES.has(error.code)) return undefined;
      // The server names the user it refused; that user may be the service's own role rather than the URL's.
      const user = /(?:user|role) "([^"]*)"/.exec(message)?.[1] ?? userOf(dependency.url, 'postgres');
      if (error.code === '28P01') return `refused the login of user "${user}": wrong user or password`;
      return `refused the login of user "${user}": ${/^role ".*" does not exist$/.test(message) ? 'no such user' : `not allowed to connect (${message})`}`;
    }
    case 'RabbitMQ':
      return /ACCESS[-_]REFUSED/.test(message) ? `refused the login of user "${userOf(dependency.url, 'guest')}": wrong user or password` : undefined;
    case 'Redis':
      if (/^WRONGPASS/.test(message)) return `refused the login of user "${userOf(dependency.url, 'default')}": wrong user or password`;
      return /^NOAUTH/.test(message) ? `refused the login of user "${userOf(dependency.url, 'default')}": it asks for a password, and the URL gives none` : undefined;
  }
}

function userOf(url: string, fallback: string): string {
  const { username } = new URL(url);
  return username ? decodeURIComponent(username) : fallback;
}
