import { findSchemaDrift } from '@smsq/persistence';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from './test-database.js';

/**
 * What differs between a service's schema.prisma and what its migrations really create, on a
 * fresh database: empty when the two agree.
 */
export async function schemaDriftOf(prismaDir: URL, schema: string): Promise<string[]> {
  const migrationsDir = fileURLToPath(new URL('migrations', prismaDir));
  const database = await createTestDatabase(`drift_${schema}`, [{ schema, migrationsDir }]);
  try {
    return await findSchemaDrift({ schemaPath: fileURLToPath(new URL('schema.prisma', prismaDir)), databaseUrl: database.url, schema });
  } finally {
    await database.drop();
  }
}
