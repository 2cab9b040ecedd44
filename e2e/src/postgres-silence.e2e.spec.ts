import type { SqlDriverAdapter, SqlQuery, SqlQueryable } from '@prisma/driver-adapter-utils';
import { createPgAdapter, databaseAnswersAfresh, PoolProgress, QUERY_TIMEOUT_GRACE_MS, type PgAdapterOptions, type SessionLimits } from '@smsq/persistence';
import { dropDatabase, FaultProxies, TEST_SERVER_URL, throughProxy, timed, until } from '@smsq/testing';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';

const POSTGRES = { host: '127.0.0.1', port: 5432 };
const LIMITS: SessionLimits = { statementTimeoutMs: 1_000, idleInTransactionTimeoutMs: 1_500 };
/** What the client waits for an answer before it gives up on a silent connection. */
const QUERY_DEADLINE_MS = LIMITS.statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS;

function sql(text: string): SqlQuery {
  return { sql: text, args: [], argTypes: [] };
}

async function backendPid(on: SqlQueryable): Promise<number> {
  const { rows } = await on.queryRaw(sql('SELECT pg_backend_pid()'));
  return Number(rows[0]![0]);
}

/** One proxy of `proxies` in front of Postgres. */
interface PostgresProxy {
  silence(): Promise<void>;
  heal(): Promise<void>;
  url(databaseUrl: string): string;
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The query on the silenced connection failed after the statement limit and its grace, and the
 * next one runs at once on another backend: with one connection in the pool, the lost one handed
 * out again would time out the next query too.
 */
async function expectGivenUpThenFresh(lost: { ms: number; error?: unknown }, adapter: SqlQueryable, silenced: number, proxy: PostgresProxy): Promise<void> {
  expect(lost.error).toEqual(new Error('Query read timeout'));
  expect(lost.ms).toBeGreaterThanOrEqual(QUERY_DEADLINE_MS - 50);
  expect(lost.ms).toBeLessThan(QUERY_DEADLINE_MS + 2_000);
  const next = await timed(async () => expect(await backendPid(adapter)).not.toBe(silenced));
  expect(next.error).toBeUndefined();
  // A new connection, well within the deadline that handing out the lost one again would wait for.
  expect(next.ms).toBeLessThan(QUERY_DEADLINE_MS);
  expect(await proxy.openConnections()).toBe(1);
}

let proxies: FaultProxies;

/** A proxy in front of Postgres for `test`, closed after it. */
async function proxyFor(test: TestContext): Promise<PostgresProxy> {
  const name = `postgres-${randomBytes(4).toString('hex')}`;
  const port = await proxies.add(name, POSTGRES);
  let closed: Promise<void> | undefined;
  const proxy: PostgresProxy = {
    silence: () => proxies.fault(name, { kind: 'silent' }),
    heal: () => proxies.heal(name),
    url: (databaseUrl) => throughProxy(databaseUrl, port),
    openConnections: () => proxies.connections(name),
    close: () => (closed ??= proxies.remove(name)),
  };
  test.onTestFinished(() => proxy.close());
  return proxy;
}

/**
 * A Prisma adapter on a pool of its own, through `proxy` when there is one. After `test` the proxy
 * closes first, so that a session still waiting on a silenced connection sees it close, and then
 * the pool ends.
 */
async function adapterFor(test: TestContext, databaseUrl: string, options: PgAdapterOptions, proxy?: PostgresProxy): Promise<{ adapter: SqlDriverAdapter; pool: pg.Pool }> {
  const adapter = await createPgAdapter(proxy ? proxy.url(databaseUrl) : databaseUrl, options).connect();
  test.onTestFinished(async () => {
    await proxy?.close();
    await adapter.dispose();
  });
  return { adapter, pool: adapter.underlyingDriver() as pg.Pool };
}

// Concurrent: each test waits out seconds of silence or sleep on connections of its own.
const SERVER_URL = `${TEST_SERVER_URL}/postgres`;

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  proxies = await FaultProxies.start();
});

afterAll(async () => {
  await proxies.close();
});

/**
 * The bounds on silence of every PostgreSQL pool of smsq (libs/persistence, session-limits.ts),
 * against the real server behind the fault proxy. Here rather than beside the code: the fault
 * proxy's library builds on libs/persistence.
 */
describe.concurrent(createPgAdapter.name, () => {
  const databaseName = `smsq_test_silence_${randomBytes(4).toString('hex')}`;
  const databaseUrl = `${TEST_SERVER_URL}/${databaseName}`;

  beforeAll(async () => {
    await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE "${databaseName}"`));
    await withClient(databaseUrl, (client) => client.query('CREATE TABLE account (id int PRIMARY KEY, balance int NOT NULL); INSERT INTO account VALUES (1, 100)'));
  });

  afterAll(async () => {
    await dropDatabase(databaseName);
  });

  describe('on a connection gone silent', () => {
    it('fails a query after the statement limit and its grace instead of hanging, and the next query gets a fresh connection once the network heals', async (test) => {
      const proxy = await proxyFor(test);
      const { adapter, pool } = await adapterFor(test, databaseUrl, { maxConnections: 1, limits: LIMITS }, proxy);
      const silenced = await backendPid(adapter);

      await proxy.silence();
      const lost = await timed(() => adapter.queryRaw(sql('SELECT 1')));
      await proxy.heal();

      await expectGivenUpThenFresh(lost, adapter, silenced, proxy);
      expect(pool.totalCount).toBe(1);
    });

    it('fails a query inside a transaction the same way, and the connection is not handed out again after the transaction is given up', async (test) => {
      const proxy = await proxyFor(test);
      const { adapter } = await adapterFor(test, databaseUrl, { maxConnections: 1, limits: LIMITS }, proxy);
      const transaction = await adapter.startTransaction();
      const silenced = await backendPid(transaction);

      await proxy.silence();
      const lost = await timed(() => transaction.queryRaw(sql('SELECT 1')));
      // What Prisma does with a failed interactive transaction; the adapter releases its connection without an error.
      await transaction.rollback();
      await proxy.heal();

      await expectGivenUpThenFresh(lost, adapter, silenced, proxy);
    });

    it('has the server end a transaction left open by a client that went silent, freeing its row locks, after the idle-in-transaction limit', async (test) => {
      const proxy = await proxyFor(test);
      const applicationName = `smsq-limits-spec-${randomBytes(4).toString('hex')}`;
      const { adapter } = await adapterFor(test, databaseUrl, { applicationName, limits: LIMITS }, proxy);
      const transaction = await adapter.startTransaction();
      const silenced = await backendPid(transaction);
      // Given up by its client in the end (released, so that the pool can end), whatever the outcome.
      test.onTestFinished(() => transaction.rollback());
      // Taken before the lock is asked for: the server's idle clock starts once it has answered,
      // which on a busy machine can be well before this process hears the answer.
      const idleSince = performance.now();
      await transaction.queryRaw(sql('SELECT balance FROM account WHERE id = 1 FOR UPDATE'));
      await proxy.silence();

      await withClient(databaseUrl, async (direct) => {
        // Bounded, so that a lock never freed fails this test instead of holding it.
        await direct.query('SET statement_timeout = 5000');
        await direct.query('SELECT balance FROM account WHERE id = 1 FOR UPDATE');
        const lockFreedAfter = performance.now() - idleSince;

        expect(lockFreedAfter).toBeGreaterThanOrEqual(LIMITS.idleInTransactionTimeoutMs - 50);
        expect(lockFreedAfter).toBeLessThan(LIMITS.idleInTransactionTimeoutMs + 2_000);
        const sessions = async () => (await direct.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 OR pid = $2', [applicationName, silenced])).rows;
        await until(async () => (await sessions()).length === 0, { timeoutMs: 3_000 });
      });
    });
  });

  it('tells liveness its pool still gets answers while queries are answered, and not once they stop', async (test) => {
    const proxy = await proxyFor(test);
    const progress = new PoolProgress();
    const { adapter } = await adapterFor(test, databaseUrl, { maxConnections: 1, limits: LIMITS, progress }, proxy);
    expect(progress.answering()).toBe(false);

    await backendPid(adapter);
    const answeredAt = Date.now();
    await proxy.silence();
    await timed(() => adapter.queryRaw(sql('SELECT 1')));

    expect(progress.answering(answeredAt + 9_000)).toBe(true);
    expect(progress.answering(answeredAt + 10_500)).toBe(false);
  });

  it('has a live server cancel a statement past its limit, before the client would give up, and the connection stays in use', async (test) => {
    const { adapter } = await adapterFor(test, databaseUrl, { maxConnections: 1, limits: { statementTimeoutMs: 500, idleInTransactionTimeoutMs: 1_500 } });
    // In a transaction: outside one, pg's pool drops a connection after any failed query, whoever failed it.
    const transaction = await adapter.startTransaction();
    const before = await backendPid(transaction);

    const cancelled = await timed(() => transaction.queryRaw(sql('SELECT pg_sleep(5)')));
    const rolledBack = await timed(() => transaction.executeRaw(sql('ROLLBACK')));
    await transaction.rollback();

    expect(cancelled.error).toMatchObject({ cause: { originalCode: '57014', originalMessage: 'canceling statement due to statement timeout' } });
    expect(cancelled.ms).toBeGreaterThanOrEqual(450);
    expect(cancelled.ms).toBeLessThan(1_500);
    expect(rolledBack.error).toBeUndefined();
    expect(await backendPid(adapter)).toBe(before);
  });

  it('gives up connecting to a server that accepts the connection and never answers, after 5 s', async (test) => {
    const proxy = await proxyFor(test);
    await proxy.silence();
    const { adapter, pool } = await adapterFor(test, databaseUrl, { limits: LIMITS }, proxy);

    const refused = await timed(() => adapter.queryRaw(sql('SELECT 1')));

    expect(refused.error).toBeInstanceOf(Error);
    expect(String(refused.error)).toMatch(/timeout/i);
    expect(refused.ms).toBeGreaterThanOrEqual(4_950);
    expect(refused.ms).toBeLessThan(7_000);
    expect(pool.totalCount).toBe(0);
  });
});

describe.concurrent(databaseAnswersAfresh.name, () => {
  const serverUrl = SERVER_URL;

  it('resolves when the database answers a new connection', async () => {
    await expect(databaseAnswersAfresh(serverUrl)).resolves.toBeUndefined();
  });

  it('rejects within about 2 s when a new connection is accepted and never answered', async (test) => {
    const proxy = await proxyFor(test);
    await proxy.silence();

    const probed = await timed(() => databaseAnswersAfresh(proxy.url(serverUrl)));

    expect(probed.error).toBeInstanceOf(Error);
    expect(probed.ms).toBeGreaterThanOrEqual(1_950);
    expect(probed.ms).toBeLessThan(4_000);
  });
});
