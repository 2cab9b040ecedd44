import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { ensureDatabase } from './ensure-database.js';
import { migrate } from './migrator.js';
import { findSchemaDrift } from './schema-drift.js';
import { createMigrationsFolder } from './test-support/migrations-folder.js';
import { SAMPLE_MIGRATION_SQL, SAMPLE_PRISMA_SCHEMA } from './test-support/sample-schema.js';
import { dropTestDatabase, uniqueTestDatabaseUrl, withClient } from './test-support/test-database.js';

describe(findSchemaDrift.name, () => {
  const databaseUrl = uniqueTestDatabaseUrl('drift');
  let workDir: string;
  let schemaPath: string;
  let migrationsDir: string;

  const driftOf = (schema: string) => findSchemaDrift({ schemaPath, databaseUrl, schema });
  const alterDatabase = (sql: string) => withClient(databaseUrl, (client) => client.query(sql));

  beforeAll(async () => {
    await ensureDatabase(databaseUrl);
    workDir = await mkdtemp(join(tmpdir(), 'smsq-drift-'));
    schemaPath = join(workDir, 'schema.prisma');
    await writeFile(schemaPath, SAMPLE_PRISMA_SCHEMA);
    migrationsDir = await createMigrationsFolder({ '20240101000000_create_sample': SAMPLE_MIGRATION_SQL });
  });

  beforeEach(async () => {
    await alterDatabase('DROP SCHEMA IF EXISTS "sample" CASCADE; DROP SCHEMA IF EXISTS "audit" CASCADE');
    await migrate({ databaseUrl, schema: 'sample', migrationsDir });
  });

  afterAll(async () => {
    await dropTestDatabase(databaseUrl);
    await rm(workDir, { recursive: true, force: true });
    await rm(migrationsDir, { recursive: true, force: true });
  });

  it('finds no drift when the migrations create exactly what the schema describes', async () => {
    expect(await driftOf('sample')).toEqual([]);
  });

  it('compares only the models placed in the schema it is asked about', async () => {
    expect(await driftOf('audit')).toEqual([]);
  });

  it('reports a missing column', async () => {
    await alterDatabase('ALTER TABLE "sample"."accounts" DROP COLUMN "credits"');

    expect(await driftOf('sample')).toEqual(['column sample.accounts.credits (Account.credits) is missing from the database']);
  });

  it('reports a column whose nullability differs from the schema, either way', async () => {
    await alterDatabase('ALTER TABLE "sample"."messages" ALTER COLUMN "body" DROP NOT NULL');
    await alterDatabase('ALTER TABLE "sample"."accounts" ALTER COLUMN "name" SET NOT NULL');

    expect(await driftOf('sample')).toEqual([
      'column sample.accounts.name (Account.name) is NOT NULL in the database but optional in the schema',
      'column sample.messages.body (Message.body) is nullable in the database but required in the schema',
    ]);
  });

  it('reports a column of the wrong type', async () => {
    await alterDatabase('ALTER TABLE "sample"."accounts" ALTER COLUMN "email" TYPE TEXT');

    expect(await driftOf('sample')).toEqual([
      'column sample.accounts.email (Account.email) has type text in the database, the schema expects character varying(255)',
    ]);
  });

  it('reports a missing index, naming its table and columns', async () => {
    await alterDatabase('DROP INDEX "sample"."accounts_name_created_at_idx"');

    expect(await driftOf('sample')).toEqual([
      'index on sample.accounts (name, created_at DESC) (@@index of Account) is missing from the database',
    ]);
  });

  it('reports an index whose uniqueness differs from the schema', async () => {
    await alterDatabase(`DROP INDEX "sample"."messages_account_id_external_id_key";
      CREATE INDEX "messages_account_id_external_id_key" ON "sample"."messages"("account_id", "external_id")`);

    expect(await driftOf('sample')).toEqual([
      'unique index on sample.messages (account_id, external_id) (@@unique of Message) is an index (messages_account_id_external_id_key) in the database',
    ]);
  });

  it('reports a table no model maps to, but never the migrations table', async () => {
    await alterDatabase('CREATE TABLE "sample"."stray" ("id" INTEGER)');

    expect(await driftOf('sample')).toEqual(['table sample.stray exists in the database but no model maps to it']);
  });

  it('reports a missing table, a missing foreign key and a lost sequence', async () => {
    await alterDatabase(`DROP TABLE "sample"."type_samples";
      ALTER TABLE "sample"."messages" DROP CONSTRAINT "messages_account_id_fkey";
      ALTER TABLE "sample"."accounts" ALTER COLUMN "id" DROP DEFAULT`);

    expect(await driftOf('sample')).toEqual([
      'column sample.accounts.id (Account.id) has no sequence in the database but the schema declares @default(autoincrement())',
      'foreign key sample.messages (account_id) → sample.accounts (id) (Message.account) is missing from the database',
      'table sample.type_samples (model TypeSample) is missing from the database',
    ]);
  });

  it('reports enum values the schema does not declare', async () => {
    await alterDatabase(`ALTER TYPE "sample"."MessageStatus" ADD VALUE 'bounced'`);

    expect(await driftOf('sample')).toEqual([
      `enum sample.MessageStatus has the value 'bounced' in the database, which the schema does not declare`,
    ]);
  });
});
