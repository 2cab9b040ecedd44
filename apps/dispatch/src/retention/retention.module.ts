import { Module } from '@nestjs/common';
import { RetentionPruner } from '@smsq/platform';
import { DispatchConfig } from '../config/dispatch-config.js';
import { DatabaseModule } from '../database/database.module.js';
import { DispatchDatabase } from '../database/dispatch-database.js';
import { dispatchPrunes } from './dispatch-retention.js';

/** Prunes what dispatch keeps only for a while, every SMSQ_RETENTION_INTERVAL_S. */
@Module({
  imports: [DatabaseModule],
  providers: [
    {
      provide: RetentionPruner,
      inject: [DispatchDatabase, DispatchConfig],
      useFactory: (db: DispatchDatabase, config: DispatchConfig) => new RetentionPruner('dispatch', db, dispatchPrunes(config), config.retentionIntervalS),
    },
  ],
})
export class RetentionModule {}
