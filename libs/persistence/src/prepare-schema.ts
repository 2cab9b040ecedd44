import { fileURLToPath } from 'node:url';
import { ensureDatabase } from './ensure-database.js';
import { migrate, type MigrationLogger } from './migrator.js';
import { canManageRoles, ensureServiceRole, serviceRoleName } from './service-role.js';

export interface PrepareSchemaOptions {
  /** DATABASE_URL: the server, the database, and a user that may create it. */
  databaseUrl: string;
  /** The service's own URL (e.g. BILLING_DATABASE_URL) for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  schema: string;
  migrationsUrl: URL;
  logger?: MigrationLogger;
}

/**
 * What a service does with its database before it starts: create the database if it is missing,
 * give the service a role of its own that can touch only its schema (when DATABASE_URL's user is
 * a superuser), then apply the schema's pending migrations as that role. Answers the URL the
 * service's connection pool must use. `migrationsUrl` is usually
 * `new URL('../prisma/migrations', import.meta.url)`, which resolves from both `src/` and `dist/`.
 */
export async function prepareSchema(options: PrepareSchemaOptions): Promise<string> {
  await ensureDatabase(options.databaseUrl);
  const runtimeUrl = await runtimeUrlOf(options);
  await migrate({ databaseUrl: runtimeUrl, schema: options.schema, migrationsDir: fileURLToPath(options.migrationsUrl), logger: options.logger });
  return runtimeUrl;
}

async function runtimeUrlOf(options: PrepareSchemaOptions): Promise<string> {
  if (options.serviceDatabaseUrl) return options.serviceDatabaseUrl;
  if (await canManageRoles(options.databaseUrl)) {
    const runtimeUrl = await ensureServiceRole(options.databaseUrl, options.schema);
    options.logger?.debug?.(`Schema ${options.schema} belongs to role ${serviceRoleName(options.schema)}, which the service connects as`);
    return runtimeUrl;
  }
  options.logger?.log(`The database user cannot create roles and no ${options.schema} database URL is set: the service connects as that user`);
  return options.databaseUrl;
}
