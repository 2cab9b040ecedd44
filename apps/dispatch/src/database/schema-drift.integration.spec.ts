import { findSchemaDrift } from '@smsq/persistence';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, DISPATCH_PRISMA_SCHEMA } from '../testing/dispatch-under-test.js';

describe('dispatch migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('create exactly what schema.prisma describes', async () => {
    await expect(findSchemaDrift({ schemaPath: DISPATCH_PRISMA_SCHEMA, databaseUrl: database.url, schema: 'dispatch' })).resolves.toEqual([]);
  });
});
