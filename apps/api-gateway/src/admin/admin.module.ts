import { Module } from '@nestjs/common';
import { ClientsRepository } from '../clients/clients.repository.js';
import { ClientsService } from '../clients/clients.service.js';
import { IdentityModule } from '../identity/identity.module.js';
import { PhonePairingService } from '../phones/phone-pairing.service.js';
import { AdminController } from './admin.controller.js';

@Module({
  imports: [IdentityModule],
  controllers: [AdminController],
  providers: [ClientsRepository, ClientsService, PhonePairingService],
})
export class AdminModule {}
