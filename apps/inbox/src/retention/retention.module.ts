import { Module } from '@nestjs/common';
import { RetentionPruner } from '@smsq/platform';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from '../database/inbox-database.js';
import { inboxPrunes } from './inbox-retention.js';

/** Prunes what inbox keeps only for a while, every SMSQ_RETENTION_INTERVAL_S. */
@Module({
  providers: [
    {
      provide: RetentionPruner,
      inject: [InboxDatabase, InboxConfig],
      useFactory: (db: InboxDatabase, config: InboxConfig) => new RetentionPruner('inbox', db, inboxPrunes(config), config.retentionIntervalS),
    },
  ],
})
export class RetentionModule {}
