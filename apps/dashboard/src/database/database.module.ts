import { Global, Module } from '@nestjs/common';
import { DashboardConfig } from '../config/dashboard-config.js';
import { DatabaseReadiness } from './database-readiness.js';
import { DashboardDatabase } from './dashboard-database.js';

// Global modules are destroyed last, so the database outlives every provider that still uses it on shutdown.
@Global()
@Module({
  providers: [
    { provide: DashboardDatabase, useFactory: (config: DashboardConfig) => new DashboardDatabase(config.databaseUrl), inject: [DashboardConfig] },
    DatabaseReadiness,
  ],
  exports: [DashboardDatabase],
})
export class DatabaseModule {}
