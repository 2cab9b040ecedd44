import { Module } from '@nestjs/common';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientsService } from '../clients/clients.service.js';
import { IdentityModule } from '../identity/identity.module.js';
import { PhonePairingService } from '../phones/phone-pairing.service.js';
import { PhoneRegistrationController } from '../phones/phone-registration.controller.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AdminController } from './admin.controller.js';

@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [AdminController, PhoneRegistrationController],
  providers: [ClientsRepository, ClientsService, PhonePairingService],
  exports: [ClientsRepository],
})
export class AdminModule {}
