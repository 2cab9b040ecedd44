import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { OptOutsController } from './opt-outs.controller.js';
import { OptOutsMessagesController } from './opt-outs-messages.controller.js';
import { OptOutsService } from './opt-outs.service.js';

/** The public API of opt-out lists; dispatch keeps them and applies them to every create. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [OptOutsController, OptOutsMessagesController],
  providers: [OptOutsService],
})
export class OptOutsModule {}
