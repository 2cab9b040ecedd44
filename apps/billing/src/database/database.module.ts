import { Global, Module } from '@nestjs/common';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from './billing-database.js';
import { DatabaseReadiness } from './database-readiness.js';

// Global modules are destroyed last, so the database outlives every provider that still uses it on shutdown.
@Global()
@Module({
  providers: [
    { provide: BillingDatabase, useFactory: (config: BillingConfig) => new BillingDatabase(config.databaseUrl), inject: [BillingConfig] },
    DatabaseReadiness,
  ],
  exports: [BillingDatabase],
})
export class DatabaseModule {}
