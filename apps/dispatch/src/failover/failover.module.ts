import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { FailoverRepository } from './failover.repository.js';
import { PhoneFailover } from './phone-failover.js';

/** Waiting tasks leave phones that cannot send them. */
@Module({
  imports: [DatabaseModule, DueSignalsModule, OutboxModule, RoutingModule],
  providers: [FailoverRepository, PhoneFailover],
  exports: [PhoneFailover],
})
export class FailoverModule {}
