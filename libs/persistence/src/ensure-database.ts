import { Client } from 'pg';
import { boundedConnection, START_CONNECT_TIMEOUT_MS } from './session-limits.js';

import { databaseNameOf, withDatabase } from './database-url.js';
import { quoteIdentifier } from './quote-identifier.js';

const DUPLICATE_DATABASE = '42P04';
// Two concurrent CREATE DATABASE calls can collide on pg_database's unique index instead.
const UNIQUE_VIOLATION = '23505';

/** Creates the database the URL names when it does not exist yet; safe to call from several processes at once. */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const databaseName = databaseNameOf(databaseUrl);
  const maintenance = new Client(boundedConnection(withDatabase(databaseUrl, 'postgres'), START_CONNECT_TIMEOUT_MS));
  await maintenance.connect();
  try {
    const existing = await maintenance.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (existing.rowCount) {
      return;
    }
    await maintenance.query(`CREATE DATABASE ${quoteIdentifier(databaseName)}`);
  } catch (error) {
    if (!isCreationRace(error)) {
      throw error;
    }
  } finally {
    await maintenance.end();
  }
}

function isCreationRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === DUPLICATE_DATABASE || code === UNIQUE_VIOLATION;
}
