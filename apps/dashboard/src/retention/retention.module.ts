import { Module } from '@nestjs/common';
import { RetentionPruner } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { DashboardDatabase } from '../database/dashboard-database.js';
import { dashboardPrunes } from './dashboard-retention.js';

/** Prunes what the dashboard keeps only for a while, every SMSQ_RETENTION_INTERVAL_S. */
@Module({
  providers: [
    {
      provide: RetentionPruner,
      inject: [DashboardDatabase, DashboardConfig],
      useFactory: (db: DashboardDatabase, config: DashboardConfig) => new RetentionPruner('dashboard', db, dashboardPrunes(config), config.retentionIntervalS),
    },
  ],
})
export class RetentionModule {}
