import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

import { ensureDatabase } from './ensure-database.js';
import { prepareSchema } from './prepare-schema.js';
import { scramKeys } from './scram-verifier.js';
import { serviceRoleName } from './service-role.js';
import { createMigrationsFolder } from './test-support/migrations-folder.js';
import { dropTestDatabase, uniqueTestDatabaseUrl, withClient } from './test-support/test-database.js';

// Real service names: roles are cluster-wide, and these are the ones the services create anyway.
const OWN = 'billing';
const OTHER = 'inbox';

describe(prepareSchema.name, () => {
  const created: string[] = [];
  const migrationsUrls = new Map<string, URL>();

  const newDatabaseUrl = (label: string) => {
    const url = uniqueTestDatabaseUrl(label);
    created.push(url);
    return url;
  };
  const prepare = (databaseUrl: string, schema = OWN) => prepareSchema({ databaseUrl, schema, migrationsUrl: migrationsUrls.get(schema)! });
  const ownerOf = (databaseUrl: string, sql: string, values: unknown[]) =>
    withClient(databaseUrl, async (client) => (await client.query<{ owner: string }>(sql, values)).rows.map((row) => row.owner));

  beforeAll(async () => {
    for (const schema of [OWN, OTHER]) migrationsUrls.set(schema, await migrationsFor(schema));
  });

  afterAll(async () => {
    await Promise.all(created.map(dropTestDatabase));
  });

  it("answers a URL of the service's own role, which owns its schema and every object in it", async () => {
    const databaseUrl = newDatabaseUrl('roles_own');

    const runtimeUrl = await prepare(databaseUrl);

    expect(decodeURIComponent(new URL(runtimeUrl).username)).toBe(serviceRoleName(OWN));
    expect(new URL(runtimeUrl).password).not.toBe('');
    const attributes = await withClient(databaseUrl, async (client) =>
      (await client.query('SELECT rolcanlogin, rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = $1', [serviceRoleName(OWN)])).rows,
    );
    expect(attributes).toEqual([{ rolcanlogin: true, rolsuper: false, rolcreaterole: false, rolcreatedb: false }]);
    // The server here trusts local connections, so prove the password instead: it matches the role's SCRAM verifier.
    expect(await verifiesPassword(databaseUrl, serviceRoleName(OWN), decodeURIComponent(new URL(runtimeUrl).password))).toBe(true);
    expect(await verifiesPassword(databaseUrl, serviceRoleName(OWN), 'not-the-password')).toBe(false);
    expect(await ownerOf(databaseUrl, 'SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1', [OWN])).toEqual([serviceRoleName(OWN)]);
    expect(await ownersInSchema(databaseUrl, OWN)).toEqual([serviceRoleName(OWN)]);
  });

  it('lets the role read and write its own tables, and nothing else', async () => {
    const databaseUrl = newDatabaseUrl('roles_fenced');
    await ensureDatabase(databaseUrl);
    // As Postgres before 15 created every database: anyone may create tables in public.
    await withClient(databaseUrl, (client) => client.query('GRANT CREATE ON SCHEMA public TO PUBLIC'));
    const runtimeUrl = await prepare(databaseUrl);
    await prepare(databaseUrl, OTHER);

    await withClient(runtimeUrl, async (client) => {
      expect((await client.query(`SELECT current_user AS who`)).rows).toEqual([{ who: serviceRoleName(OWN) }]);
      await client.query(`INSERT INTO "${OWN}"."notes" ("text", "mood") VALUES ('mine', 'calm')`);
      expect((await client.query(`SELECT "text" FROM "${OWN}"."notes"`)).rows).toEqual([{ text: 'mine' }]);
      await expect(client.query(`SELECT * FROM "${OTHER}"."notes"`)).rejects.toThrow(/permission denied for schema/);
      await expect(client.query(`INSERT INTO "${OTHER}"."notes" ("text") VALUES ('theirs')`)).rejects.toThrow(/permission denied for schema/);
      await expect(client.query('CREATE TABLE public.intruder (id integer)')).rejects.toThrow(/permission denied for schema public/);
      await expect(client.query('CREATE SCHEMA intruder')).rejects.toThrow(/permission denied for database/);
    });
  });

  it('changes nothing when run again, and the data stays', async () => {
    const databaseUrl = newDatabaseUrl('roles_again');
    const runtimeUrl = await prepare(databaseUrl);
    await withClient(runtimeUrl, (client) => client.query(`INSERT INTO "${OWN}"."notes" ("text") VALUES ('kept')`));

    const again = await prepare(databaseUrl);

    expect(again).toBe(runtimeUrl);
    expect(await withClient(again, async (client) => (await client.query(`SELECT "text" FROM "${OWN}"."notes"`)).rows)).toEqual([{ text: 'kept' }]);
    expect(await ownersInSchema(databaseUrl, OWN)).toEqual([serviceRoleName(OWN)]);
  });

  it('hands a schema an earlier version created as the superuser over to the role', async () => {
    const databaseUrl = newDatabaseUrl('roles_handover');
    await withClient(databaseUrl.replace(/\/[^/]*$/, '/postgres'), (client) => client.query(`CREATE DATABASE "${new URL(databaseUrl).pathname.slice(1)}"`));
    await withClient(databaseUrl, (client) =>
      client.query(`CREATE SCHEMA "${OWN}"; CREATE TABLE "${OWN}"."legacy" ("id" SERIAL PRIMARY KEY, "text" TEXT); INSERT INTO "${OWN}"."legacy" ("text") VALUES ('old');
                    CREATE SEQUENCE "${OWN}"."numbers"; CREATE FUNCTION "${OWN}"."twice"(n integer) RETURNS integer LANGUAGE sql AS 'SELECT n * 2';`),
    );
    expect(await ownersInSchema(databaseUrl, OWN)).toEqual(['postgres']);

    const runtimeUrl = await prepare(databaseUrl);

    expect(await ownersInSchema(databaseUrl, OWN)).toEqual([serviceRoleName(OWN)]);
    await withClient(runtimeUrl, async (client) => {
      await client.query(`INSERT INTO "${OWN}"."legacy" ("text") VALUES ('new')`);
      expect((await client.query(`SELECT "text" FROM "${OWN}"."legacy" ORDER BY "id"`)).rows).toEqual([{ text: 'old' }, { text: 'new' }]);
      expect((await client.query(`SELECT nextval('"${OWN}"."numbers"') AS n, "${OWN}"."twice"(4) AS t`)).rows).toEqual([{ n: '1', t: 8 }]);
    });
  });

  it('succeeds for every service when many prepare at once, in one database and in several, creating the roles', async () => {
    // Schemas of their own, so the roles do not exist yet and are created in the race.
    const schemas = [`race_${randomBytes(3).toString('hex')}`, `race_${randomBytes(3).toString('hex')}`];
    for (const schema of schemas) migrationsUrls.set(schema, await migrationsFor(schema));
    const first = newDatabaseUrl('roles_race_a');
    const second = newDatabaseUrl('roles_race_b');
    try {
      const outcomes = await Promise.allSettled(
        [first, second].flatMap((databaseUrl) => [...schemas, ...schemas].map((schema) => prepare(databaseUrl, schema))),
      );

      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      for (const databaseUrl of [first, second]) {
        for (const schema of schemas) expect(await ownersInSchema(databaseUrl, schema)).toEqual([serviceRoleName(schema)]);
      }
    } finally {
      await Promise.all([first, second].map(dropTestDatabase));
      await withClient(first.replace(/\/[^/]*$/, '/postgres'), (client) => client.query(schemas.map((schema) => `DROP ROLE IF EXISTS "${serviceRoleName(schema)}";`).join('')));
    }
  });

  it('computes SCRAM verifiers exactly as Postgres does, so the role can sign in with the password its URL carries', async () => {
    const role = `smsq_test_scram_${randomBytes(3).toString('hex')}`;
    const adminUrl = uniqueTestDatabaseUrl('unused').replace(/\/[^/]*$/, '/postgres');
    await withClient(adminUrl, (client) => client.query(`SET password_encryption = 'scram-sha-256'; CREATE ROLE "${role}" PASSWORD 'plain text password'`));
    try {
      expect(await verifiesPassword(adminUrl, role, 'plain text password')).toBe(true);
      expect(await verifiesPassword(adminUrl, role, 'plain text passwore')).toBe(false);
    } finally {
      await withClient(adminUrl, (client) => client.query(`DROP ROLE "${role}"`));
    }
  });

  it("migrates and connects as a role created by hand with the README's SQL, given as the service's own URL", async () => {
    const schema = `manual_${randomBytes(3).toString('hex')}`;
    const role = serviceRoleName(schema);
    migrationsUrls.set(schema, await migrationsFor(schema));
    const databaseUrl = newDatabaseUrl('roles_manual');
    await ensureDatabase(databaseUrl);
    const database = new URL(databaseUrl).pathname.slice(1);
    await withClient(databaseUrl, (client) =>
      client.query(`CREATE ROLE ${role} LOGIN PASSWORD 'choose-one'; GRANT CONNECT ON DATABASE "${database}" TO ${role};
                    CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role}; REVOKE CREATE ON SCHEMA public FROM PUBLIC;`),
    );
    const serviceDatabaseUrl = Object.assign(new URL(databaseUrl), { username: role, password: 'choose-one' }).toString();
    try {
      const runtimeUrl = await prepareSchema({ databaseUrl, serviceDatabaseUrl, schema, migrationsUrl: migrationsUrls.get(schema)! });

      expect(runtimeUrl).toBe(serviceDatabaseUrl);
      expect(await ownersInSchema(databaseUrl, schema)).toEqual([role]);
      await withClient(runtimeUrl, (client) => client.query(`INSERT INTO "${schema}"."notes" ("text") VALUES ('by hand')`));
    } finally {
      await dropTestDatabase(databaseUrl);
      await withClient(databaseUrl.replace(/\/[^/]*$/, '/postgres'), (client) => client.query(`DROP ROLE IF EXISTS ${role}`));
    }
  });
});

/** Whether the role's stored SCRAM-SHA-256 verifier accepts the password, as the server would at sign-in. */
async function verifiesPassword(databaseUrl: string, role: string, password: string): Promise<boolean> {
  const stored = await withClient(databaseUrl, async (client) => (await client.query<{ rolpassword: string }>('SELECT rolpassword FROM pg_authid WHERE rolname = $1', [role])).rows[0]!.rolpassword);
  const match = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(stored);
  if (!match) throw new Error(`${role} has no SCRAM verifier`);
  const { storedKey } = scramKeys(password, Buffer.from(match[2]!, 'base64'), Number(match[1]));
  return storedKey.toString('base64') === match[3];
}

/** Shaped like Prisma's: it starts by creating its schema, which the role may not do itself. */
async function migrationsFor(schema: string): Promise<URL> {
  const dir = await createMigrationsFolder({
    '20260101000000_create_notes': `-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "${schema}";\n\nCREATE TYPE "mood" AS ENUM ('calm', 'busy');\nCREATE TABLE "notes" ("id" SERIAL PRIMARY KEY, "text" TEXT NOT NULL, "mood" "mood");`,
  });
  return pathToFileURL(`${dir}/`);
}

/** The distinct owners of the schema's tables, sequences, types and routines. */
async function ownersInSchema(databaseUrl: string, schema: string): Promise<string[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ owner: string }>(
      `SELECT DISTINCT pg_get_userbyid(owner) AS owner FROM (
         SELECT c.relowner AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1
         UNION ALL SELECT t.typowner FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = $1
         UNION ALL SELECT p.proowner FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1
       ) AS objects ORDER BY owner`,
      [schema],
    );
    return rows.map((row) => row.owner);
  });
}
