import { describe, expect, it } from 'vitest';

import { databaseNameOf, withDatabase } from './database-url.js';
import { createPgAdapter } from './prisma-adapter.js';
import { quoteIdentifier } from './quote-identifier.js';
import { dropTestDatabase, uniqueTestDatabaseUrl, withClient } from './test-support/test-database.js';

describe(createPgAdapter.name, () => {
  const serverUrl = withDatabase(uniqueTestDatabaseUrl('adapter'), 'postgres');

  it('connects to Postgres with the pool size and application name it is given', async () => {
    const sut = createPgAdapter(serverUrl, { maxConnections: 3, applicationName: 'smsq-persistence-spec' });

    const adapter = await sut.connect();
    try {
      const { rows } = await adapter.underlyingDriver().query<{ name: string }>("SELECT current_setting('application_name') AS name");
      expect(rows).toEqual([{ name: 'smsq-persistence-spec' }]);
      expect(adapter.underlyingDriver().options.max).toBe(3);
      expect(sut.provider).toBe('postgres');
    } finally {
      await adapter.dispose();
    }
  });

  it('runs its sessions in UTC on a server whose default time zone is another, so stored instants match now()', async () => {
    const databaseUrl = uniqueTestDatabaseUrl('adapter_zone');
    const name = quoteIdentifier(databaseNameOf(databaseUrl));
    await withClient(serverUrl, async (client) => {
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`ALTER DATABASE ${name} SET timezone TO 'America/New_York'`);
    });
    const adapter = await createPgAdapter(databaseUrl).connect();
    try {
      const { rows } = await adapter.underlyingDriver().query<{ zone: string }>("SELECT current_setting('TimeZone') AS zone");
      expect(rows).toEqual([{ zone: 'UTC' }]);
    } finally {
      await adapter.dispose();
      await dropTestDatabase(databaseUrl);
    }
  });

  it('runs its transactions read committed on a server whose default isolation is another, so no transaction has to ask for it', async () => {
    const databaseUrl = uniqueTestDatabaseUrl('adapter_isolation');
    const name = quoteIdentifier(databaseNameOf(databaseUrl));
    await withClient(serverUrl, async (client) => {
      await client.query(`CREATE DATABASE ${name}`);
      await client.query(`ALTER DATABASE ${name} SET default_transaction_isolation TO 'serializable'`);
    });
    const adapter = await createPgAdapter(databaseUrl).connect();
    try {
      const driver = adapter.underlyingDriver();
      const session = await driver.connect();
      try {
        await session.query('BEGIN');
        const { rows } = await session.query<{ isolation: string }>("SELECT current_setting('transaction_isolation') AS isolation");
        await session.query('COMMIT');
        expect(rows).toEqual([{ isolation: 'read committed' }]);
      } finally {
        session.release();
      }
    } finally {
      await adapter.dispose();
      await dropTestDatabase(databaseUrl);
    }
  });
});
