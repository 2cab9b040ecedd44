import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ClientPhonesController } from './client-phones.controller.js';
import { ClientPhonesService } from './client-phones.service.js';
import { PhoneNumbersMessagesController } from './phone-numbers-messages.controller.js';
import { PhoneNumbersService } from './phone-numbers.service.js';

/** The client-facing phone API: listing one's phones or VIP gateways, setting an own phone's number and SIM limits, resuming a paused one; phone numbers from the dashboard and the admin command line. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [ClientPhonesController, PhoneNumbersMessagesController],
  providers: [ClientPhonesService, PhoneNumbersService],
})
export class PhonesModule {}
