import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { QueueGauges } from './queue-gauges.js';
import { QueueSnapshotRepository } from './queue-snapshot.repository.js';

/** What dispatch's /metrics reads from its database when scraped; its counters count where the changes happen. */
@Module({
  imports: [DatabaseModule],
  providers: [QueueSnapshotRepository, QueueGauges],
})
export class MetricsModule {}
