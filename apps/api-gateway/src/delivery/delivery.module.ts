import { Module } from '@nestjs/common';
import { ClientsRepository } from '../clients/clients.repository.js';
import { IdentityModule } from '../identity/identity.module.js';
import { InboundController } from '../inbound/inbound.controller.js';
import { InboundService } from '../inbound/inbound.service.js';
import { PhoneHealthController } from '../phone-health/phone-health.controller.js';
import { PhoneHealthService } from '../phone-health/phone-health.service.js';
import { DueSignals } from './due-signals.js';
import { WorkerTasksController } from './worker-tasks.controller.js';
import { WorkerTasksService } from './worker-tasks.service.js';

/** The worker-facing API: claiming due tasks (long poll), reporting outcomes, syncing replies, reporting phone health. */
@Module({
  imports: [IdentityModule],
  controllers: [WorkerTasksController, InboundController, PhoneHealthController],
  providers: [DueSignals, WorkerTasksService, InboundService, PhoneHealthService, ClientsRepository],
})
export class DeliveryModule {}
