import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ensureDatabase } from './ensure-database.js';
import { MigrationError } from './migration.error.js';
import { migrate } from './migrator.js';
import { createMigrationsFolder, writeMigration } from './test-support/migrations-folder.js';
import { dropTestDatabase, uniqueTestDatabaseUrl, withClient } from './test-support/test-database.js';

const CREATE_ACCOUNTS = 'CREATE TABLE "accounts" ("id" SERIAL NOT NULL, "email" TEXT NOT NULL, CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"));\n';
// Depends on the first migration, so applying out of order would fail.
const ADD_ACCOUNT_NAME = 'ALTER TABLE "accounts" ADD COLUMN "name" TEXT;\nCREATE INDEX "accounts_name_idx" ON "accounts"("name");\n';
const INSERT_ACCOUNT = `INSERT INTO "accounts" ("email", "name") VALUES ('first@example.com', 'First');\n`;

const BASE_MIGRATIONS = {
  '20240101000000_create_accounts': CREATE_ACCOUNTS,
  '20240102000000_add_account_name': ADD_ACCOUNT_NAME,
  '20240103000000_insert_first_account': INSERT_ACCOUNT,
};

interface MigrationRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
  logs: string | null;
  rolled_back_at: Date | null;
}

describe(migrate.name, () => {
  const databaseUrl = uniqueTestDatabaseUrl('migrator');
  const folders: string[] = [];
  let schemaCount = 0;

  const newSchema = () => `svc_${++schemaCount}`;
  const newFolder = async (migrations: Record<string, string>) => {
    const dir = await createMigrationsFolder(migrations);
    folders.push(dir);
    return dir;
  };
  const recordedMigrations = (schema: string) =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<MigrationRow>(`SELECT * FROM "${schema}"."_prisma_migrations" ORDER BY started_at`);
      return rows;
    });
  const tableExists = (schema: string, table: string) =>
    withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [`"${schema}"."${table}"`]);
      return rows[0]?.found !== null;
    });

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
  });

  afterAll(async () => {
    await dropTestDatabase(databaseUrl);
    await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('applies the migrations in folder order into the schema and records each as Prisma does', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);

    const result = await migrate({ databaseUrl, schema, migrationsDir });

    expect(result.applied).toEqual(Object.keys(BASE_MIGRATIONS));
    const rows = await recordedMigrations(schema);
    expect(rows.map((row) => row.migration_name)).toEqual(Object.keys(BASE_MIGRATIONS));
    for (const row of rows) {
      const sql = BASE_MIGRATIONS[row.migration_name as keyof typeof BASE_MIGRATIONS];
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
    }
    const accounts = await withClient(databaseUrl, (client) => client.query(`SELECT email, name FROM "${schema}"."accounts"`));
    expect(accounts.rows).toEqual([{ email: 'first@example.com', name: 'First' }]);
  });

  it('applies nothing when run again, and only the new migration once one is added', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);
    await migrate({ databaseUrl, schema, migrationsDir });

    const again = await migrate({ databaseUrl, schema, migrationsDir });
    await writeMigration(migrationsDir, '20240104000000_add_account_note', 'ALTER TABLE "accounts" ADD COLUMN "note" TEXT;\n');
    const afterAdding = await migrate({ databaseUrl, schema, migrationsDir });

    expect(again.applied).toEqual([]);
    expect(afterAdding.applied).toEqual(['20240104000000_add_account_note']);
    expect(await recordedMigrations(schema)).toHaveLength(4);
  });

  it('refuses to go on when an applied migration was modified, naming it', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);
    await migrate({ databaseUrl, schema, migrationsDir });
    await writeMigration(migrationsDir, '20240102000000_add_account_name', ADD_ACCOUNT_NAME.replace('TEXT', 'VARCHAR(100)'));
    await writeMigration(migrationsDir, '20240104000000_add_account_note', 'ALTER TABLE "accounts" ADD COLUMN "note" TEXT;\n');

    const attempt = migrate({ databaseUrl, schema, migrationsDir });

    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(/20240102000000_add_account_name.*modified/);
    expect((await recordedMigrations(schema)).map((row) => row.migration_name)).not.toContain('20240104000000_add_account_note');
  });

  it('rolls a failing migration back entirely, records it nowhere and names it in the error', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder({
      ...BASE_MIGRATIONS,
      '20240104000000_create_broken': 'CREATE TABLE "half_done" ("id" INTEGER);\nSELECT 1 / 0;\n',
      '20240105000000_create_later': 'CREATE TABLE "later" ("id" INTEGER);\n',
    });

    const attempt = migrate({ databaseUrl, schema, migrationsDir });

    await expect(attempt).rejects.toThrow(MigrationError);
    await expect(attempt).rejects.toThrow(/20240104000000_create_broken.*division by zero/);
    expect(await tableExists(schema, 'half_done')).toBe(false);
    expect(await tableExists(schema, 'later')).toBe(false);
    const rows = await recordedMigrations(schema);
    expect(rows.map((row) => row.migration_name)).toEqual(Object.keys(BASE_MIGRATIONS));
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
  });

  it('refuses to go on past a migration recorded as started but never finished, naming it', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);
    await migrate({ databaseUrl, schema, migrationsDir });
    await withClient(databaseUrl, (client) =>
      client.query(`UPDATE "${schema}"."_prisma_migrations" SET finished_at = NULL WHERE migration_name = $1`, [
        '20240103000000_insert_first_account',
      ]),
    );

    await expect(migrate({ databaseUrl, schema, migrationsDir })).rejects.toThrow(/20240103000000_insert_first_account.*never finished/);
  });

  it('applies each migration exactly once when two services start at the same time', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);

    const results = await Promise.all([
      migrate({ databaseUrl, schema, migrationsDir }),
      migrate({ databaseUrl, schema, migrationsDir }),
    ]);

    expect(results.flatMap((result) => result.applied).sort()).toEqual(Object.keys(BASE_MIGRATIONS));
    expect((await recordedMigrations(schema)).map((row) => row.migration_name)).toEqual(Object.keys(BASE_MIGRATIONS));
    const accounts = await withClient(databaseUrl, (client) => client.query(`SELECT count(*)::int AS count FROM "${schema}"."accounts"`));
    expect(accounts.rows[0]).toEqual({ count: 1 });
  });

  it('reports progress to the logger it is given', async () => {
    const schema = newSchema();
    const migrationsDir = await newFolder(BASE_MIGRATIONS);
    const messages: string[] = [];

    await migrate({ databaseUrl, schema, migrationsDir, logger: { log: (message) => messages.push(message), debug: (message) => messages.push(message) } });

    expect(messages).toContain(`Applying migration 20240101000000_create_accounts to schema ${schema}`);
    expect(messages.at(-1)).toBe(`Applied 3 migration(s) to schema ${schema}`);
  });
});
