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

/** A statement asked of a transaction past its time-out; worded as Prisma words its P2028, which callers read as an outage. */
export class TransactionTimedOutError extends Error {
  constructor(timeoutMs: number) {
    super(`Transaction already closed: it ran past its time-out of ${timeoutMs} ms`);
    this.name = 'TransactionTimedOutError';
  }
}

const INT8 = 20;
const TIMESTAMP = 1114;
const DATE = 1082;

/**
 * Rows as Prisma's `$queryRaw` answers them, so that a repository reads the same values either
 * way: int8 as bigint; timestamp without time zone as UTC (the sessions run in UTC) and date as
 * UTC midnight, where `pg` would read both in the process's own time zone. Everything else is
 * read as `pg` reads it, which is what Prisma answers too (int4 and floats as numbers,
 * timestamptz as Date, json parsed, arrays as arrays, enums and uuids as strings), but for
 * numeric, which `pg` answers as a string and Prisma as a Decimal: cast it in the statement.
 * apps/dispatch's pg-sql.integration.spec.ts holds the two to the same answers.
 */
const PRISMA_TYPES = {
  getTypeParser(oid: number, format?: string): (value: string) => unknown {
    if (oid === INT8) return (value) => BigInt(value);
    if (oid === TIMESTAMP) return (value) => new Date(`${value.replace(' ', 'T')}Z`);
    if (oid === DATE) return (value) => new Date(`${value}T00:00:00Z`);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * Raw SQL on a `pg` pool, or on one of its connections inside a transaction, without Prisma's
 * client in between: per statement Prisma's `$queryRaw` cost about three times the CPU of the
 * statement sent by `pg` itself (docs/performance.md), and a create, a claim and a report are made
 * of such statements. The services' model queries stay with Prisma, on the same pool.
 */
export class PgSql implements SqlSession {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tag: SqlTag,
  ) {}

  $queryRaw<T = unknown>(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<T> {
    return run(this.pool, this.statementOf(query, values)).then((result) => result.rows as T);
  }

  $executeRaw(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<number> {
    return run(this.pool, this.statementOf(query, values)).then((result) => result.rowCount ?? 0);
  }

  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
    return run(this.pool, { text: query, values }).then((result) => result.rows as T);
  }

  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return run(this.pool, { text: query, values }).then((result) => result.rowCount ?? 0);
  }

  /**
   * Runs `work` in a transaction on one connection of the pool: committed if it returns, rolled
   * back if it throws (a connection that cannot even roll back is dropped, not pooled again).
   * Waiting for a connection is bounded by the pool's connect time-out, as Prisma's `maxWait` was.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>, options: SqlTransactionOptions): Promise<T> {
    const client = await this.pool.connect();
    const tx = new TransactionSql(client, (query, values) => this.statementOf(query, values), Date.now() + options.timeoutMs, options.timeoutMs);
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      tx.close();
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      tx.close();
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollbackFailed: Error) => client.release(rollbackFailed),
      );
      throw error;
    }
  }

  private statementOf(query: TemplateStringsArray | SqlStatement, values: unknown[]): SqlStatement {
    return isStatement(query) ? query : this.tag(query, ...(values as never[]));
  }
}

/** The statements of one open transaction, on its connection, until it commits or rolls back. */
class TransactionSql implements SqlSession {
  private closed = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly statementOf: (query: TemplateStringsArray | SqlStatement, values: unknown[]) => SqlStatement,
    private readonly deadline: number,
    private readonly timeoutMs: number,
  ) {}

  $queryRaw<T = unknown>(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<T> {
    return this.run(this.statementOf(query, values)).then((result) => result.rows as T);
  }

  $executeRaw(query: TemplateStringsArray | SqlStatement, ...values: unknown[]): Promise<number> {
    return this.run(this.statementOf(query, values)).then((result) => result.rowCount ?? 0);
  }

  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> {
    return this.run({ text: query, values }).then((result) => result.rows as T);
  }

  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number> {
    return this.run({ text: query, values }).then((result) => result.rowCount ?? 0);
  }

  close(): void {
    this.closed = true;
  }

  private async run(statement: SqlStatement): Promise<pg.QueryResult> {
    if (this.closed) throw new Error('Transaction already closed: a statement came after its commit or rollback');
    if (Date.now() > this.deadline) throw new TransactionTimedOutError(this.timeoutMs);
    return run(this.client, statement);
  }
}

function run(runner: pg.Pool | pg.PoolClient, statement: SqlStatement): Promise<pg.QueryResult> {
  return runner.query({ text: statement.text, values: [...statement.values], types: PRISMA_TYPES });
}

function isStatement(query: TemplateStringsArray | SqlStatement): query is SqlStatement {
  return !Array.isArray(query) && typeof (query as SqlStatement).text === 'string';
}
