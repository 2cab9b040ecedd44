import { describe, expect, it } from 'vitest';

import { withDatabase } from './database-url.js';
import { createPgAdapter } from './prisma-adapter.js';
import { uniqueTestDatabaseUrl } from './test-support/test-database.js';

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
});
