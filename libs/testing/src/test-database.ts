import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ensureDatabase, migrate } from '@smsq/persistence';

export const TEST_SERVER_URL = process.env['SMSQ_TEST_DATABASE_SERVER'] ?? 'postgresql://postgres@127.0.0.1:5432';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A database of its own for one test suite, migrated for the given services, dropped afterwards. */
export async function createTestDatabase(
  label: string,
  services: ReadonlyArray<{ schema: string; migrationsDir: string }>,
): Promise<TestDatabase> {
  const name = `smsq_test_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const url = `${TEST_SERVER_URL}/${name}`;
  await ensureDatabase(url);
  for (const service of services) await migrate({ databaseUrl: url, schema: service.schema, migrationsDir: service.migrationsDir });
  return { url, name, drop: () => dropDatabase(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${TEST_SERVER_URL}/postgres` });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
