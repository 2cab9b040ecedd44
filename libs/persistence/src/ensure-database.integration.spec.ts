import { afterAll, describe, expect, it } from 'vitest';

import { databaseNameOf, withDatabase } from './database-url.js';
import { ensureDatabase } from './ensure-database.js';
import { dropTestDatabase, uniqueTestDatabaseUrl, withClient } from './test-support/test-database.js';

describe(ensureDatabase.name, () => {
  const created: string[] = [];
  const newDatabaseUrl = (label: string) => {
    const url = uniqueTestDatabaseUrl(label);
    created.push(url);
    return url;
  };
  const databaseExists = (databaseUrl: string) =>
    withClient(withDatabase(databaseUrl, 'postgres'), async (client) => {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseNameOf(databaseUrl)]);
      return rowCount === 1;
    });

  afterAll(async () => {
    await Promise.all(created.map(dropTestDatabase));
  });

  it('creates a database that does not exist yet', async () => {
    const databaseUrl = newDatabaseUrl('ensure_missing');

    await ensureDatabase(databaseUrl);

    expect(await databaseExists(databaseUrl)).toBe(true);
    await withClient(databaseUrl, (client) => client.query('SELECT 1'));
  });

  it('leaves an existing database and its data alone', async () => {
    const databaseUrl = newDatabaseUrl('ensure_existing');
    await ensureDatabase(databaseUrl);
    await withClient(databaseUrl, (client) => client.query('CREATE TABLE kept (id integer); INSERT INTO kept VALUES (7)'));

    await ensureDatabase(databaseUrl);

    const { rows } = await withClient(databaseUrl, (client) => client.query('SELECT id FROM kept'));
    expect(rows).toEqual([{ id: 7 }]);
  });

  it('succeeds for every caller when several create the same database at once', async () => {
    const databaseUrl = newDatabaseUrl('ensure_race');

    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => ensureDatabase(databaseUrl)));

    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(5).fill('fulfilled'));
    expect(await databaseExists(databaseUrl)).toBe(true);
  });

  it('creates a database whose name needs quoting', async () => {
    const databaseUrl = withDatabase(newDatabaseUrl('ensure_quoted'), `smsq_test_persistence_Quoted "name" ${Date.now()}`);
    created.push(databaseUrl);

    await ensureDatabase(databaseUrl);

    expect(await databaseExists(databaseUrl)).toBe(true);
  });
});
