import { createHash } from 'node:crypto';
import pg from 'pg';

/** A statement as Prisma's `sql` tag builds it: Postgres placeholders ($1, $2, …) and their values. */
export interface SqlStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Prisma's `sql` tag (each service's `Prisma.sql`), which nests fragments and `Prisma.join` lists. */
export type SqlTag = (strings: readonly string[], ...values: readonly never[]) => SqlStatement;

/**
 * What a repository runs its SQL through, with Prisma's names and call shapes: a Prisma client or
 * interactive transaction is one, and so is `PgSql`, which sends the same statements straight to
 * the pool's `pg` connections.
 */
export interface SqlSession {
  $queryRaw<T = unknown>(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<number>;
  /** A statement written with its own placeholders ($1, $2, …), for SQL whose names are not known until run time. */
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface SqlTransactionOptions {
  /** Past this, the transaction takes no further statement and is rolled back (Prisma's `timeout`). */
  timeoutMs: number;
}

/**
 * A statement of a `PgSql` transaction whose answer the work does not need, left to go out with
 * the commit instead of being waited for: the work returns at once and COMMIT follows it on the
 * wire. If it fails, the server rolls the transaction back and the commit fails with its error.
 */
export function sentWithCommit(statement: Promise<unknown>): void {
  // Its failure is the commit's to report.
  statement.catch(() => undefined);
}

/** A statement asked of a transaction past its time-out; worded as Prisma words its P2028, which callers read as an outage. */
export class TransactionTimedOutError extends Error {
  constructor(timeoutMs: number) {
    super(`Transaction already closed: it ran past its time-out of ${timeoutMs} ms`);
    this.name = 'TransactionTimedOutError';
  }
}

const TEXT_ARRAY: number = 1009;
/** SQLSTATE of a statement refused because an earlier one of its transaction failed. */
const IN_FAILED_TRANSACTION = '25P02';
const bigint = (value: string) => BigInt(value);
const utcTimestamp = (value: string) => new Date(`${value.replace(' ', 'T')}Z`);
const utcDate = (value: string) => new Date(`${value}T00:00:00Z`);

/** An array of `parse`d elements, nested as Postgres nests it (the text array parser does the quoting). */
function arrayOf(parse: (value: string) => unknown): (value: string) => unknown {
  const each = (item: unknown): unknown => (Array.isArray(item) ? item.map(each) : item === null ? null : parse(item as string));
  return (value) => each(pg.types.getTypeParser(TEXT_ARRAY, 'text')(value));
}

/** By type OID: int8, timestamp, date and their arrays. */
const PRISMA_PARSERS = new Map<number, (value: string) => unknown>([
  [20, bigint],
  [1016, arrayOf(bigint)],
  [1114, utcTimestamp],
  [1115, arrayOf(utcTimestamp)],
  [1082, utcDate],
  [1182, arrayOf(utcDate)],
]);

/**
 * Rows as Prisma's `$queryRaw` answers them, so that a repository reads the same values either
 * way: int8 as bigint; timestamp without time zone as UTC (the sessions run in UTC) and date as
 * UTC midnight, where `pg` would read both in the process's own time zone; arrays of these alike.
 * The rest is read as `pg` reads it, which is what Prisma answers too for what the repositories
 * select (int2 and int4 and floats as numbers, timestamptz as Date, json parsed, text and int
 * arrays, enums and uuids as strings); numeric, which `pg` answers as a string and Prisma as a
 * Decimal, none selects: cast it in the statement. apps/dispatch's pg-sql.integration.spec.ts
 * holds the two to the same answers.
 */
const PRISMA_TYPES = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    return PRISMA_PARSERS.get(oid) ?? pg.types.getTypeParser(oid, format as 'text');
  },
};

/** `SqlSession`'s four calls, once, for whatever sends the statements: the pool, or one transaction's connection. */
abstract class StatementSender implements SqlSession {
  constructor(protected readonly tag: SqlTag) {}

  protected abstract send(statement: SqlStatement): Promise<pg.QueryResult>;

  $queryRaw<T = unknown>(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<T> {
    return this.send(this.statementOf(query, values)).then((result) => result.rows as T);
  }

  $executeRaw(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<number> {
    return this.send(this.statementOf(query, values)).then((result) => result.rowCount ?? 0);
  }

  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
    return this.send({ text: query, values }).then((result) => result.rows as T);
  }

  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return this.send({ text: query, values }).then((result) => result.rowCount ?? 0);
  }

  private statementOf(query: TemplateStringsArray | SqlStatement, values: unknown[]): SqlStatement {
    return isStatement(query) ? query : this.tag(query, ...(values as never[]));
  }
}

/**
 * Raw SQL on a `pg` pool, or on one of its connections inside a transaction, without Prisma's
 * client in between: per statement Prisma's `$queryRaw` cost about three times the CPU of the
 * statement sent by `pg` itself (docs/performance.md), and a create, a claim and a report are made
 * of such statements. The services' model queries stay with Prisma, on the same pool.
 */
export class PgSql extends StatementSender {
  constructor(
    private readonly pool: pg.Pool,
    tag: SqlTag,
  ) {
    super(tag);
  }

  /**
   * Runs `work` in a transaction on one connection of the pool: committed if it returns in time,
   * rolled back if it throws. Past `timeoutMs` the connection is dropped (the server rolls back
   * and frees its locks) and the work's next statement, or its commit, fails with
   * `TransactionTimedOutError`, as Prisma's interactive transactions did. A connection lost
   * meanwhile fails the work's next statement with that loss, never the process. Waiting for a
   * connection is bounded by the pool's connect time-out, as Prisma's `maxWait` was.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>, options: SqlTransactionOptions): Promise<T> {
    const client = await this.pool.connect();
    const tx = new TransactionSql(client, this.tag, options.timeoutMs);
    const timer = setTimeout(() => tx.expire(), options.timeoutMs);
    try {
      tx.begin();
      const result = await work(tx);
      await tx.commit();
      return result;
    } catch (error) {
      await tx.rollback();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  protected send(statement: SqlStatement): Promise<pg.QueryResult> {
    return run(this.pool, statement);
  }
}

/** The statements of one open transaction, on its connection, until it commits or rolls back. */
class TransactionSql extends StatementSender {
  /** Why no statement may run any more: the transaction ended, ran out of time, or lost its connection. */
  private ended: Error | undefined;
  /** The first statement of this transaction that failed: those sent behind it are refused for it. */
  private failure: unknown;
  private begun = false;
  private released = false;
  /** pg-pool listens for a checked-out connection's errors no longer; unheard, its loss would end the process. */
  private readonly onLost = (error: Error) => {
    this.ended ??= error;
  };

  constructor(
    private readonly client: pg.PoolClient,
    tag: SqlTag,
    private readonly timeoutMs: number,
  ) {
    super(tag);
    client.on('error', this.onLost);
  }

  /** Sent, not awaited: the work's first statements go out behind it, and the commit checks it. */
  begin(): void {
    this.send({ text: 'BEGIN', values: [] }).then(
      () => (this.begun = true),
      () => undefined,
    );
  }

  async commit(): Promise<void> {
    const answer = await this.send({ text: 'COMMIT', values: [] });
    this.ended = new Error('Transaction already closed: a statement came after its commit');
    this.release();
    // Answered in order: by now BEGIN was. Without it every statement would have been its own transaction.
    if (!this.begun) throw this.failure ?? new Error('Transaction never began');
    // The server answers the COMMIT of a transaction a failed statement aborted with ROLLBACK:
    // a statement sent with the commit (`sentWithCommit`) failed, and nothing was kept.
    if (answer.command === 'ROLLBACK') throw this.failure ?? new Error('Transaction rolled back at its commit');
  }

  /** After a failure: rolls back on a connection that still works, drops one that does not. */
  async rollback(): Promise<void> {
    if (this.released) return;
    const failed = this.ended;
    this.ended = new Error('Transaction already closed: a statement came after its rollback');
    if (failed) return this.release(failed);
    await this.client.query('ROLLBACK').then(
      () => this.release(),
      (error: Error) => this.release(error),
    );
  }

  /** Past the time-out: the connection is dropped at once, whatever statement it is running. */
  expire(): void {
    if (this.released) return;
    const timedOut = new TransactionTimedOutError(this.timeoutMs);
    this.ended ??= timedOut;
    this.release(timedOut);
  }

  protected async send(statement: SqlStatement): Promise<pg.QueryResult> {
    if (this.ended) throw this.ended;
    return run(this.client, statement).catch((error: unknown) => {
      // A statement still running at the time-out fails with its connection: the time-out is the cause.
      if (this.ended instanceof TransactionTimedOutError) throw this.ended;
      // Dropped at the rollback instead of going back to the pool (the pool drops one that fails outside a transaction itself).
      if (leavesConnectionUnfit(error)) this.ended ??= error as Error;
      // Statements sent behind a failed one are refused (25P02) for it: the first failure is the cause to report.
      if (this.failure !== undefined && (error as { code?: unknown }).code === IN_FAILED_TRANSACTION) throw this.failure;
      this.failure ??= error;
      throw error;
    });
  }

  private release(error?: Error): void {
    if (this.released) return;
    this.released = true;
    this.client.off('error', this.onLost);
    // Given an error, the pool ends the connection instead of handing it out again, and it goes at
    // once: the work waits for no statement still running (the server's own rollback comes when it
    // sees the socket closed, at the latest when that statement ends).
    if (error) dropAtOnce(this.client);
    this.client.release(error);
  }
}

/**
 * The texts given a prepared statement's name, at most `PREPARED_LIMIT` of them: a connection
 * parses a named statement once and then only binds it, which at rest is most of a short
 * statement's server time (docs/performance.md, "Optimisation 14"). A statement whose text varies
 * with its batch (a `Prisma.join` list) would name one statement per length, so past the limit the
 * texts not yet named are sent unnamed, parsed each time as before; the limit bounds what each
 * server connection keeps.
 */
export const PREPARED_LIMIT = 200;
const preparedNames = new Map<string, string>();

/** A name fixed by the text itself, so every copy of this module in a process agrees on it. */
function preparedNameOf(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= PREPARED_LIMIT) return known;
  const name = `smsq_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
  preparedNames.set(text, name);
  return name;
}

function run(runner: pg.Pool | pg.PoolClient, statement: SqlStatement): Promise<pg.QueryResult> {
  return runner.query({ name: preparedNameOf(statement.text), text: statement.text, values: statement.values.map(utcDates), types: PRISMA_TYPES });
}

/**
 * A failure after which the connection is not to be used again: a prepared statement the server
 * can no longer run as prepared (a migration changed the type of a column it answers), or one the
 * server no longer has (26000), or a failure on the client's side, with no SQLSTATE, such as a
 * value that could not be sent, after which `pg` has closed a statement it still counts as prepared.
 */
function leavesConnectionUnfit(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code !== 'string' || code === '26000' || (code === '0A000' && (error as Error).message.includes('cached plan'));
}

/** Closes a connection's socket at once: in pipeline mode `end()` would first wait for every statement already sent. */
function dropAtOnce(client: pg.PoolClient): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}

/** Instants as UTC, as Prisma sent them: `pg` would write a Date in the process's own offset, which a timestamp or text parameter would keep. */
function utcDates(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return Array.isArray(value) ? value.map(utcDates) : value;
}

function isStatement(query: TemplateStringsArray | SqlStatement): query is SqlStatement {
  return !Array.isArray(query) && typeof (query as SqlStatement).text === 'string';
}
