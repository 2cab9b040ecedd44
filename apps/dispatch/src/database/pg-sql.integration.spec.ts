import { createPgPool, PgSql, PREPARED_LIMIT, sentWithCommit, TransactionTimedOutError, type SqlSession } from '@smsq/persistence';
import { isInfrastructureOutage } from '@smsq/platform';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../generated/prisma/client.js';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { inTransaction } from './db-transaction.js';

/** The repositories' raw SQL went through Prisma's `$queryRaw`; through `pg` it must read and write the same values. */
describe(`${PgSql.name} as DispatchDatabase.sql`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** The object under test: dispatch's raw SQL and transactions, sent by pg. */
  let sut: PgSql;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    sut = dispatch.db.sql;
    await sut.$executeRaw`CREATE TABLE "dispatch"."pg_sql_probe" (n int PRIMARY KEY)`;
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  it('reads every kind of column the repositories select as Prisma read it', async () => {
    const at = new Date('2026-03-29T01:30:00.123Z');
    const read = (db: SqlSession) =>
      db.$queryRaw`
        SELECT 1::int AS int4, 9007199254740993::bigint AS int8, count(*) AS counted, count(*)::int AS "countedInt", 1.5::float8 AS float8,
               true AS bool, 'x y'::text AS text, 'b7c1d8a0-5a1e-4c3b-9f00-000000000001'::uuid AS uuid, 'pending'::"dispatch"."task_status" AS status,
               ${at}::timestamptz AS "atZone", (${at}::timestamptz AT TIME ZONE 'UTC') AS "atPlain", (${at}::timestamptz AT TIME ZONE 'Asia/Tokyo')::date AS day,
               '{"a": [1, "b"], "c": null}'::jsonb AS json, ARRAY[1, 2]::int[] AS ints, ARRAY['a', 'b c', 'd"e']::text[] AS texts, NULL::int AS nothing,
               interval '90 seconds' > interval '1 minute' AS compared, ARRAY[1, NULL, 9007199254740993]::bigint[] AS "int8s",
               ARRAY[${at}::timestamptz AT TIME ZONE 'UTC', NULL] AS "plainTimes", ARRAY[(${at}::timestamptz)::date] AS days, ARRAY[${at}::timestamptz] AS "zoneTimes"
          FROM (VALUES (1), (2)) AS v(x)`;
    const byPg = await read(sut);
    expect(byPg).toEqual(await read(dispatch.db));
    expect(byPg).toEqual([
      expect.objectContaining({
        int8: 9007199254740993n,
        counted: 2n,
        countedInt: 2,
        atZone: at,
        atPlain: at,
        day: new Date('2026-03-29T00:00:00Z'),
        json: { a: [1, 'b'], c: null },
        int8s: [1n, null, 9007199254740993n],
        plainTimes: [at, null],
        days: [new Date('2026-03-29T00:00:00Z')],
        zoneTimes: [at],
      }),
    ]);
  });

  it('sends every kind of value the repositories pass as Prisma sent it', async () => {
    const at = new Date('2026-11-28T23:59:59.999Z');
    const sent = (db: SqlSession) =>
      db.$queryRaw`
        SELECT ${[3, 1, 2]}::int[] AS ints, ${['x', 'y,z', 'q"uote', 'back\\slash']}::text[] AS texts, ${at}::timestamptz AS at, ${null}::text AS nothing,
               ${JSON.stringify({ a: 'ü', b: [1] })}::jsonb AS json, ${true}::boolean AS yes, ${42}::int AS n, ${'b7c1d8a0-5a1e-4c3b-9f00-000000000002'}::uuid AS uuid,
               ${"it's"} AS quoted, ${at}::timestamp AS "plainParam"`;
    const byPg = await sent(sut);
    expect(byPg).toEqual(await sent(dispatch.db));
    expect(byPg).toEqual([{ ints: [3, 1, 2], texts: ['x', 'y,z', 'q"uote', 'back\\slash'], at, nothing: null, json: { a: 'ü', b: [1] }, yes: true, n: 42, uuid: 'b7c1d8a0-5a1e-4c3b-9f00-000000000002', quoted: "it's", plainParam: at }]);
  });

  it('keeps what a transaction did when its work returns, and nothing of it when the work throws', async () => {
    await inTransaction(dispatch.db, (tx) => tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (1)`);
    const failing = inTransaction(dispatch.db, async (tx) => {
      await tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (2)`;
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    // A statement that fails inside: the transaction is rolled back and its connection goes back to the pool usable.
    await expect(inTransaction(dispatch.db, (tx) => tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (1)`)).rejects.toThrow(/duplicate key/);
    expect(await sut.$queryRaw`SELECT n FROM "dispatch"."pg_sql_probe" WHERE n < 10 ORDER BY n`).toEqual([{ n: 1 }]);
  });

  it('at its time-out rolls back and frees its locks at once, takes no further statement, and counts as an outage', async () => {
    let heldUntilTimeOut = false;
    const late = sut.transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (10)`;
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(4242)`;
        // Still inside the work: another session may take the lock only once the transaction is gone.
        await new Promise((resolve) => setTimeout(resolve, 600));
        heldUntilTimeOut = (await sut.$queryRaw<Array<{ taken: boolean }>>`SELECT pg_try_advisory_xact_lock(4242) AS taken`)[0]!.taken;
        await tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (11)`;
      },
      { timeoutMs: 200 },
    );
    await expect(late).rejects.toBeInstanceOf(TransactionTimedOutError);
    // Answered as Prisma's own transaction time-out was: 503, retry later.
    await expect(late).rejects.toSatisfy(isInfrastructureOutage);
    expect(heldUntilTimeOut).toBe(true);
    expect(await sut.$queryRaw`SELECT n FROM "dispatch"."pg_sql_probe" WHERE n >= 10`).toEqual([]);
  });

  it('at its time-out fails the work at once, though a statement is still running, and counts as an outage', async () => {
    const started = Date.now();
    const late = sut.transaction((tx) => tx.$queryRaw`SELECT pg_sleep(3)`, { timeoutMs: 200 });
    await expect(late).rejects.toBeInstanceOf(TransactionTimedOutError);
    await expect(late).rejects.toSatisfy(isInfrastructureOutage);
    // Not when the statement ends: closing a pipelined connection politely waits for what was sent.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('fails the work, not the process, when the server ends its connection mid-transaction, and the pool goes on', async () => {
    const lost = sut.transaction(
      async (tx) => {
        const [{ pid }] = await tx.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
        await sut.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
        // The connection's error arrives between statements, with nobody waiting on it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (20)`;
      },
      { timeoutMs: 5_000 },
    );
    await expect(lost).rejects.toSatisfy(isInfrastructureOutage);
    expect(await sut.$queryRaw`SELECT n FROM "dispatch"."pg_sql_probe" WHERE n >= 20`).toEqual([]);
  });

  it('runs statements sent together in the order sent, and reports the first failure for those refused behind it', async () => {
    const together = sut.transaction(
      (tx) =>
        Promise.all([
          tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (30)`,
          tx.$queryRaw<Array<{ seen: number }>>`SELECT count(*)::int AS seen FROM "dispatch"."pg_sql_probe" WHERE n = 30`,
        ]),
      { timeoutMs: 5_000 },
    );
    expect((await together)[1]).toEqual([{ seen: 1 }]);
    const failing = sut.transaction(
      async (tx) => {
        const [, after] = await Promise.allSettled([tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (30)`, tx.$queryRaw`SELECT 1 AS one`]);
        throw (after as PromiseRejectedResult).reason;
      },
      { timeoutMs: 5_000 },
    );
    await expect(failing).rejects.toThrow(/duplicate key/);
  });

  it('keeps a statement sent with the commit, or fails the commit with its failure and keeps nothing', async () => {
    await sut.transaction(async (tx) => sentWithCommit(tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (40)`), { timeoutMs: 5_000 });
    const failing = sut.transaction(
      async (tx) => {
        await tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (41)`;
        sentWithCommit(tx.$executeRaw`INSERT INTO "dispatch"."pg_sql_probe" VALUES (40)`);
        return 'returned before the answer';
      },
      { timeoutMs: 5_000 },
    );
    await expect(failing).rejects.toThrow(/duplicate key/);
    expect(await sut.$queryRaw`SELECT n FROM "dispatch"."pg_sql_probe" WHERE n BETWEEN 40 AND 49 ORDER BY n`).toEqual([{ n: 40 }]);
  });

  describe('on a pool of one connection, whose statements can be watched', () => {
    let pool: ReturnType<typeof createPgPool>;
    let single: PgSql;

    beforeAll(() => {
      pool = createPgPool(database.url, { maxConnections: 1 });
      single = new PgSql(pool, Prisma.sql);
    });

    afterAll(() => pool?.end());

    const preparedAs = (db: SqlSession, text: string) =>
      db.$queryRaw<Array<{ custom: bigint; generic: bigint }>>`SELECT custom_plans AS custom, generic_plans AS generic FROM pg_prepared_statements WHERE statement = ${text}`;

    it('parses a statement once on a connection, and plans it for its values every time', async () => {
      const text = 'SELECT n FROM "dispatch"."pg_sql_probe" WHERE n = $1';
      for (let run = 1; run <= 7; run += 1) await single.$queryRawUnsafe(text, run);
      await single.transaction(async (tx) => expect(await tx.$queryRawUnsafe(text, 1)).toEqual([{ n: 1 }]), { timeoutMs: 5_000 });
      // Past five runs Postgres would otherwise switch to one plan for any values.
      expect(await preparedAs(single, text)).toEqual([{ custom: 8n, generic: 0n }]);
    });

    it('drops the connection when a migration changed what a prepared statement answers, and the next statement runs afresh', async () => {
      await single.$executeRaw`CREATE TABLE "dispatch"."pg_sql_altered" (v int)`;
      await single.$executeRaw`INSERT INTO "dispatch"."pg_sql_altered" VALUES (7)`;
      const read = (db: SqlSession) => db.$queryRaw<Array<{ v: unknown }>>`SELECT v FROM "dispatch"."pg_sql_altered"`;
      expect(await read(single)).toEqual([{ v: 7 }]);
      await sut.$executeRaw`ALTER TABLE "dispatch"."pg_sql_altered" ALTER COLUMN v TYPE bigint`;
      const [{ pid: before }] = await single.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      await expect(single.transaction((tx) => read(tx), { timeoutMs: 5_000 })).rejects.toThrow(/cached plan must not change result type/);
      expect(await read(single)).toEqual([{ v: 7n }]);
      const [{ pid: after }] = await single.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      expect(after).not.toBe(before);
    });

    it(`names at most ${PREPARED_LIMIT} statement texts; the others run unnamed, as before`, async () => {
      for (let n = 1; n <= PREPARED_LIMIT + 20; n += 1) expect(await single.$queryRawUnsafe(`SELECT ${n}::int AS n`)).toEqual([{ n }]);
      const [{ prepared }] = await single.$queryRaw<Array<{ prepared: number }>>`SELECT count(*)::int AS prepared FROM pg_prepared_statements`;
      expect(prepared).toBeLessThanOrEqual(PREPARED_LIMIT);
      expect(await preparedAs(single, `SELECT ${PREPARED_LIMIT + 20}::int AS n`)).toEqual([]);
    });
  });
});
