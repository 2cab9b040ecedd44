import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { TemplatesController } from './templates.controller.js';
import { TemplatesMessagesController } from './templates-messages.controller.js';
import { TemplatesRepository } from './templates.repository.js';
import { TemplatesService } from './templates.service.js';

/** Clients' message templates: kept here, where create-task fills them in. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [TemplatesController, TemplatesMessagesController],
  providers: [TemplatesRepository, TemplatesService],
  exports: [TemplatesRepository],
})
export class TemplatesModule {}
