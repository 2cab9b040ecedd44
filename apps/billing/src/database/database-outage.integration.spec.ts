import { ContractExceptionFilter } from '@smsq/platform';
import { TEST_SERVER_URL } from '@smsq/testing';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { BillingDatabase } from './billing-database.js';

/** A database that is down or restarting is a 503 to retry, not a 500 (DESIGN §3), whatever Prisma wraps it in. */
describe('a lost database', () => {
  const filter = new ContractExceptionFilter();
  const databases: BillingDatabase[] = [];

  afterAll(async () => {
    await Promise.all(databases.map((database) => database.$disconnect()));
  });

  function failureOf(work: Promise<unknown>): Promise<unknown> {
    return work.then(
      () => {
        throw new Error('expected the query to fail');
      },
      (error: unknown) => error,
    );
  }

  it('answers unavailable when the server cannot be reached', async () => {
    const database = new BillingDatabase('postgresql://postgres@127.0.0.1:1/smsq_nowhere');
    databases.push(database);

    const error = await failureOf(database.$queryRaw`SELECT 1`);

    expect(filter.toBody(error)).toEqual({ error: 'unavailable', detail: expect.any(String) });
  });

  it('answers unavailable when the server ends the connection mid-transaction (a restart)', async () => {
    const database = new BillingDatabase(`${TEST_SERVER_URL}/postgres`);
    databases.push(database);
    const admin = new Client({ connectionString: `${TEST_SERVER_URL}/postgres` });
    await admin.connect();

    const error = await failureOf(
      database.$transaction(async (tx) => {
        const [{ pid }] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await tx.$queryRaw`SELECT 1`;
      }),
    );
    await admin.end();

    expect(filter.toBody(error)).toEqual({ error: 'unavailable', detail: expect.any(String) });
  });

  it('still hides a real bug behind internal_error', async () => {
    const database = new BillingDatabase(`${TEST_SERVER_URL}/postgres`);
    databases.push(database);

    const error = await failureOf(database.$queryRaw`SELECT * FROM no_such_table_here`);

    expect(filter.toBody(error)).toEqual({ error: 'internal_error', detail: 'unexpected error' });
  });
});
