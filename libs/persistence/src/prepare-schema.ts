import { fileURLToPath } from 'node:url';
import { ensureDatabase } from './ensure-database.js';
import { migrate, type MigrationLogger } from './migrator.js';

/**
 * What a service does with its database before it starts: create the database if it is missing,
 * then apply its schema's pending migrations. `migrationsUrl` is usually
 * `new URL('../prisma/migrations', import.meta.url)`, which resolves from both `src/` and `dist/`.
 */
export async function prepareSchema(options: { databaseUrl: string; schema: string; migrationsUrl: URL; logger?: MigrationLogger }): Promise<void> {
  await ensureDatabase(options.databaseUrl);
  await migrate({ databaseUrl: options.databaseUrl, schema: options.schema, migrationsDir: fileURLToPath(options.migrationsUrl), logger: options.logger });
}
