import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { LeaseExpiry } from './lease-expiry.js';
import { LeasesRepository } from './leases.repository.js';
import { TaskExpiry } from './task-expiry.js';

/** Time running out: claims whose lease lapsed, and tasks past their expiry. */
@Module({
  imports: [DatabaseModule, DueSignalsModule, OutboxModule],
  providers: [LeasesRepository, LeaseExpiry, TaskExpiry],
})
export class LeasesModule {}
