import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { SendingRulesController } from './sending-rules.controller.js';
import { SendingRulesService } from './sending-rules.service.js';

/** The public API of a client's sending rules (routing mode, send windows); dispatch keeps and applies them. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [SendingRulesController],
  providers: [SendingRulesService],
})
export class SendingRulesModule {}
