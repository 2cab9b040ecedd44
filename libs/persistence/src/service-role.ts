import { createHmac } from 'node:crypto';
import { Client } from 'pg';
import { boundedConnection, START_CONNECT_TIMEOUT_MS } from './session-limits.js';

import { databaseNameOf, withDatabase } from './database-url.js';
import { quoteIdentifier } from './quote-identifier.js';
import { scramVerifier } from './scram-verifier.js';

// Roles are cluster-wide, so their changes are serialised in the one database every cluster has.
const ROLES_LOCK = 'smsq.service-roles';
const GRANTS_LOCK = 'smsq.service-grants';

/** The login role a service's runtime pool and migrations use: `smsq_billing` for schema `billing`. */
export function serviceRoleName(schema: string): string {
  return `smsq_${schema}`;
}

/**
 * The role's password: stable across restarts and equal for every process given the same
 * administrator, yet stored nowhere. The key is the administrator's password (from its URL) and
 * its stored verifier (`pg_authid`, which only a superuser can read), so no other database user
 * can compute it. An administrator without any password (trust, peer or certificate sign-in) leaves
 * only the cluster's identity, which any user can read: give it a password, or the services URLs
 * of their own, where passwords matter.
 */
export function serviceRolePassword(adminUrl: string, administrator: { verifier: string | null; systemIdentifier: string }, role: string): string {
  const key = [decodeURIComponent(new URL(adminUrl).password), administrator.verifier ?? '', administrator.systemIdentifier].join('\u0000');
  return createHmac('sha256', key).update(`smsq-database-role:${role}`).digest('base64url');
}

/** The administrator's URL with the role's name and password instead of its own. */
export function withCredentials(databaseUrl: string, user: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** Whether the URL's user may create roles and hand objects over to them: only a superuser may do both everywhere. */
export async function canManageRoles(databaseUrl: string): Promise<boolean> {
  const client = new Client(boundedConnection(databaseUrl, START_CONNECT_TIMEOUT_MS));
  await client.connect();
  try {
    const { rows } = await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    return rows[0]?.rolsuper === true;
  } finally {
    await client.end();
  }
}

/**
 * Makes the service's own login role the only one (besides superusers) that can touch its schema:
 * creates the role if missing and sets its derived password, gives it CONNECT on the database, the
 * schema and everything in it (objects an earlier version created as the administrator are handed
 * over), and takes away creating objects in `public`. Safe to run from many processes at once.
 * Answers the URL the service must use from now on. The administrator must be a superuser.
 */
export async function ensureServiceRole(adminUrl: string, schema: string): Promise<string> {
  const role = serviceRoleName(schema);
  const maintenance = new Client(boundedConnection(withDatabase(adminUrl, 'postgres'), START_CONNECT_TIMEOUT_MS));
  await maintenance.connect();
  let password: string;
  try {
    const { rows } = await maintenance.query<{ verifier: string | null; systemIdentifier: string }>(
      `SELECT (SELECT rolpassword FROM pg_authid WHERE rolname = current_user) AS verifier,
              (SELECT system_identifier::text FROM pg_control_system()) AS "systemIdentifier"`,
    );
    password = serviceRolePassword(adminUrl, rows[0]!, role);
    await maintenance.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [ROLES_LOCK]);
    await createLoginRole(maintenance, role, password);
  } finally {
    await maintenance.end();
  }
  await grantSchemaTo(adminUrl, schema, role);
  return withCredentials(adminUrl, role, password);
}

async function createLoginRole(client: Client, role: string, password: string): Promise<void> {
  // ALTER ROLE takes no parameters; a verifier is base64, `$` and `:`, so it needs no escaping beyond the quotes.
  const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS PASSWORD '${scramVerifier(password)}'`;
  // Under the roles lock, so no other process can create the role between the check and CREATE ROLE.
  const existing = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  await client.query(`${existing.rowCount ? 'ALTER' : 'CREATE'} ROLE ${quoteIdentifier(role)} ${attributes}`);
}

async function grantSchemaTo(adminUrl: string, schema: string, role: string): Promise<void> {
  const client = new Client(boundedConnection(adminUrl, START_CONNECT_TIMEOUT_MS));
  await client.connect();
  const quotedRole = quoteIdentifier(role);
  const quotedSchema = quoteIdentifier(schema);
  try {
    // Concurrent GRANTs on one database or schema fail with "tuple concurrently updated", so every service takes turns.
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [GRANTS_LOCK]);
    await client.query('BEGIN');
    await client.query(`GRANT CONNECT ON DATABASE ${quoteIdentifier(databaseNameOf(adminUrl))} TO ${quotedRole}`);
    // Postgres before 15 let every role create tables in public; a service has no business there.
    await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quotedSchema} AUTHORIZATION ${quotedRole}`);
    await client.query(`ALTER SCHEMA ${quotedSchema} OWNER TO ${quotedRole}`);
    for (const statement of await ownershipChanges(client, schema, role)) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** ALTER … OWNER TO statements for every object of the schema the role does not own yet. */
async function ownershipChanges(client: Client, schema: string, role: string): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    `SELECT format('ALTER TABLE %I.%I OWNER TO %I', n.nspname, c.relname, $2::text) AS statement
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND pg_get_userbyid(c.relowner) <> $2
     UNION ALL
     -- A sequence owned by a column follows its table; only free-standing ones are altered themselves.
     SELECT format('ALTER SEQUENCE %I.%I OWNER TO %I', n.nspname, c.relname, $2::text)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind = 'S' AND pg_get_userbyid(c.relowner) <> $2
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
     UNION ALL
     SELECT format('ALTER TYPE %I.%I OWNER TO %I', n.nspname, t.typname, $2::text)
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype IN ('e', 'd', 'r', 'm') AND pg_get_userbyid(t.typowner) <> $2
     UNION ALL
     SELECT format('ALTER ROUTINE %I.%I(%s) OWNER TO %I', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid), $2::text)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND pg_get_userbyid(p.proowner) <> $2`,
    [schema, role],
  );
  return rows.map((row) => row.statement);
}
