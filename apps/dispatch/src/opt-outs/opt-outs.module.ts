import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { OptOutsController } from './opt-outs.controller.js';
import { OptOutsRepository } from './opt-outs.repository.js';
import { OptOutsService } from './opt-outs.service.js';

/** Clients' opt-out lists: kept, changed by keyword replies and by the client, and read by every create. */
@Module({
  imports: [DatabaseModule, OutboxModule, WebhooksModule],
  controllers: [OptOutsController],
  providers: [OptOutsRepository, OptOutsService],
  exports: [OptOutsRepository, OptOutsService],
})
export class OptOutsModule {}
