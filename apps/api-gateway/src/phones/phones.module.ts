import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ClientPhonesController } from './client-phones.controller.js';
import { ClientPhonesService } from './client-phones.service.js';

/** The client-facing phone API: listing one's phones or VIP gateways, setting an own phone's SIM limits, resuming a paused one. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [ClientPhonesController],
  providers: [ClientPhonesService],
})
export class PhonesModule {}
