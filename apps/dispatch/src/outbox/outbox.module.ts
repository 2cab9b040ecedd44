import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { OutboxRelay } from './outbox-relay.js';
import { OutboxRepository } from './outbox.repository.js';

@Module({
  imports: [DatabaseModule, BillingModule],
  providers: [OutboxRepository, OutboxRelay],
  exports: [OutboxRepository],
})
export class OutboxModule {}
