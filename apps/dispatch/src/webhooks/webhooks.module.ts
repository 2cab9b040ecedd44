import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { WebhookDeliverer } from './webhook-deliverer.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** Status webhooks: clients' endpoints, the events queued with each task change, and their signed, retried delivery. */
@Module({
  imports: [DatabaseModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookEndpointsRepository, WebhookDeliveriesRepository, WebhookDeliverer],
  exports: [WebhookDeliveriesRepository, WebhooksService],
})
export class WebhooksModule {}
