import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** The public API of status webhooks; dispatch keeps the endpoints and sends the events. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [WebhooksController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
