import { Global, Module } from '@nestjs/common';
import { InboxConfig } from '../config/inbox-config.js';
import { DatabaseReadiness } from './database-readiness.js';
import { InboxDatabase, inboxSessionLimits } from './inbox-database.js';

// Global modules are destroyed last, so the database outlives every provider that still uses it on shutdown.
@Global()
@Module({
  providers: [
    { provide: InboxDatabase, useFactory: (config: InboxConfig) => new InboxDatabase(config.databaseUrl, inboxSessionLimits(config.rpcTimeoutMs)), inject: [InboxConfig] },
    DatabaseReadiness,
  ],
  exports: [InboxDatabase],
})
export class DatabaseModule {}
