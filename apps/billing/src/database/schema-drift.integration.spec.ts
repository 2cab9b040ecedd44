import { findSchemaDrift } from '@smsq/persistence';
import { createTestDatabase, type TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MIGRATIONS_DIR, BILLING_SCHEMA_PATH } from '../testing/billing-harness.js';

describe('billing migrations', () => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase('billing_drift', [{ schema: 'billing', migrationsDir: BILLING_MIGRATIONS_DIR }]);
  });

  afterAll(() => testDatabase.drop());

  it('create exactly what schema.prisma describes', async () => {
    const drift = await findSchemaDrift({ schemaPath: BILLING_SCHEMA_PATH, databaseUrl: testDatabase.url, schema: 'billing' });

    expect(drift).toEqual([]);
  });
});
