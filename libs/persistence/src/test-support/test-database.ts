import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

import { databaseNameOf, withDatabase } from '../database-url.js';
import { quoteIdentifier } from '../quote-identifier.js';

// The same server variable as @smsq/testing, which cannot be imported here: it builds on this library.
const TEST_SERVER_URL = process.env['SMSQ_TEST_DATABASE_SERVER'] ?? 'postgresql://postgres@127.0.0.1:5432';

/** The URL of a database name no other run uses; the database itself is not created. */
export function uniqueTestDatabaseUrl(label: string): string {
  return withDatabase(`${TEST_SERVER_URL}/postgres`, `smsq_test_persistence_${label}_${randomBytes(4).toString('hex')}`);
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  await withClient(withDatabase(databaseUrl, 'postgres'), (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(databaseNameOf(databaseUrl))} WITH (FORCE)`),
  );
}

export async function withClient<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
