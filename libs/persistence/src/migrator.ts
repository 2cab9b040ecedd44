import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { boundedConnection, START_CONNECT_TIMEOUT_MS } from './session-limits.js';

import { MigrationError } from './migration.error.js';
import { MigrationFile, readMigrationDirectory } from './migration-directory.js';
import { quoteIdentifier } from './quote-identifier.js';

export interface MigrationLogger {
  log(message: string): void;
  /** Step-by-step detail (each migration applied), where the logger shows it. */
  debug?(message: string): void;
}

export interface MigrateOptions {
  databaseUrl: string;
  /** The Postgres schema the service owns; its migrations and `_prisma_migrations` live there. */
  schema: string;
  /** A Prisma migrations folder: `<timestamp>_<name>/migration.sql` plus `migration_lock.toml`. */
  migrationsDir: string;
  logger?: MigrationLogger;
}

export interface MigrateResult {
  /** Names of the migrations this call applied, in order. */
  applied: string[];
}

interface RecordedMigration {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies the pending migrations of a Prisma migrations folder the way `prisma migrate deploy` would,
 * recording them in the schema's `_prisma_migrations` table so either tool can take over later.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const migrations = await readMigrationDirectory(options.migrationsDir);
  const client = new Client(boundedConnection(options.databaseUrl, START_CONNECT_TIMEOUT_MS));
  await client.connect();
  try {
    // Ending the session releases the lock, so a crash never leaves it held.
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`smsq.migrate:${options.schema}`]);
    return await applyPending(client, options, migrations);
  } finally {
    await client.end();
  }
}

async function applyPending(client: Client, options: MigrateOptions, migrations: MigrationFile[]): Promise<MigrateResult> {
  const { schema, logger } = options;
  const table = `${quoteIdentifier(schema)}."_prisma_migrations"`;
  // CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema exists, which a service's own role lacks.
  const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  if (!existing.rowCount) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  const recorded = await client.query<RecordedMigration>(
    `SELECT migration_name, checksum, finished_at FROM ${table} WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  const finished = checkHistory(recorded.rows, migrations, schema, logger);

  const applied: string[] = [];
  for (const migration of migrations.filter(({ name }) => !finished.has(name))) {
    logger?.debug?.(`Applying migration ${migration.name} to schema ${schema}`);
    await applyOne(client, table, schema, migration);
    applied.push(migration.name);
  }
  logger?.log(
    applied.length ? `Applied ${applied.length} migration(s) to schema ${schema}` : `Schema ${schema} is up to date`,
  );
  return { applied };
}

/** Refuses to go on when the recorded history disagrees with the files; returns the names already applied. */
function checkHistory(
  recorded: RecordedMigration[],
  migrations: MigrationFile[],
  schema: string,
  logger: MigrationLogger | undefined,
): Set<string> {
  const unfinished = recorded.find((row) => row.finished_at === null);
  if (unfinished) {
    throw new MigrationError(
      unfinished.migration_name,
      `Migration ${unfinished.migration_name} in schema ${schema} started earlier and never finished; ` +
        'resolve it (repair the database, then mark it applied or rolled back) before migrating again',
    );
  }
  const files = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const row of recorded) {
    const file = files.get(row.migration_name);
    if (!file) {
      logger?.log(`Migration ${row.migration_name} is recorded in schema ${schema} but missing from the migrations folder`);
    } else if (file.checksum !== row.checksum) {
      throw new MigrationError(
        row.migration_name,
        `Migration ${row.migration_name} was modified after it was applied to schema ${schema} ` +
          `(recorded checksum ${row.checksum}, file checksum ${file.checksum}); add a new migration instead`,
      );
    }
  }
  return new Set(recorded.map((row) => row.migration_name));
}

async function applyOne(client: Client, table: string, schema: string, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    // Unqualified names in a migration land in the service's schema, as with Prisma's `?schema=` URLs.
    await client.query(`SET LOCAL search_path TO ${quoteIdentifier(schema)}`);
    await client.query(
      `INSERT INTO ${table} (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, clock_timestamp())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(withoutOwnSchemaCreation(migration.sql, schema));
    await client.query(
      `UPDATE ${table} SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(
      migration.name,
      `Migration ${migration.name} failed and was rolled back in schema ${schema}: ${reason}`,
      { cause: error },
    );
  }
}

/**
 * Prisma starts a migration with `CREATE SCHEMA IF NOT EXISTS "<schema>"`, which Postgres refuses
 * to a role without CREATE on the database even when the schema exists. The schema always exists
 * by now, so the statement does nothing and is left out; the recorded checksum is the file's.
 */
function withoutOwnSchemaCreation(sql: string, schema: string): string {
  const name = schema.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return sql.replace(new RegExp(`^\\s*CREATE\\s+SCHEMA\\s+IF\\s+NOT\\s+EXISTS\\s+(?:"${name}"|${name})\\s*;`, 'gim'), '-- (schema exists)');
}
