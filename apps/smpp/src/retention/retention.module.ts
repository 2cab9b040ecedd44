import { Module } from '@nestjs/common';
import { RetentionPruner } from '@smsq/platform';
import { SmppConfig } from '../config/smpp-config.js';
import { SmppDatabase } from '../database/smpp-database.js';
import { smppPrunes } from './smpp-retention.js';

/** Prunes what the SMPP service keeps only for a while, every SMSQ_RETENTION_INTERVAL_S. */
@Module({
  providers: [
    {
      provide: RetentionPruner,
      inject: [SmppDatabase, SmppConfig],
      useFactory: (db: SmppDatabase, config: SmppConfig) => new RetentionPruner('smpp', db, smppPrunes(config), config.retentionIntervalS),
    },
  ],
})
export class RetentionModule {}
