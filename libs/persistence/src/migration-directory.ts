import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 hex of migration.sql's bytes, as Prisma records it. */
  checksum: string;
}

/** The migrations of a Prisma-style migrations folder, in the order Prisma applies them (folder name). */
export async function readMigrationDirectory(migrationsDir: string): Promise<MigrationFile[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(join(migrationsDir, name, 'migration.sql')).catch((error: unknown) => {
        throw new Error(`Migration ${name} has no readable migration.sql`, { cause: error });
      });
      return { name, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    }),
  );
}

export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}
