import { readFile } from 'node:fs/promises';
import { Client } from 'pg';
import { boundedConnection, START_CONNECT_TIMEOUT_MS } from './session-limits.js';

import { readDatabaseSchemaShape } from './database-schema-shape.js';
import { readPrismaSchemaShape } from './prisma-schema-shape.js';
import { compareSchemaShapes } from './schema-comparison.js';

export interface SchemaDriftOptions {
  /** A `schema.prisma` file. */
  schemaPath: string;
  databaseUrl: string;
  /** The Postgres schema to compare; with `@@schema`, only the models placed there are compared. */
  schema: string;
}

/**
 * How a database schema differs from a Prisma schema: tables, columns (type, nullability, sequences,
 * presence of defaults), indexes, foreign keys and enums. An empty list means they match.
 */
export async function findSchemaDrift(options: SchemaDriftOptions): Promise<string[]> {
  const source = await readFile(options.schemaPath, 'utf8');
  const expected = await readPrismaSchemaShape(source, options.schema);
  const client = new Client(boundedConnection(options.databaseUrl, START_CONNECT_TIMEOUT_MS));
  await client.connect();
  try {
    const actual = await readDatabaseSchemaShape(client, options.schema);
    return compareSchemaShapes(expected, actual);
  } finally {
    await client.end();
  }
}
