import { Module } from '@nestjs/common';
import { ClientsRepository } from '../clients/clients.repository.js';
import { IdentityModule } from '../identity/identity.module.js';
import { InboundController } from '../inbound/inbound.controller.js';
import { InboundService } from '../inbound/inbound.service.js';
import { DueSignals } from './due-signals.js';
import { WorkerTasksController } from './worker-tasks.controller.js';
import { WorkerTasksService } from './worker-tasks.service.js';

/** The worker-facing API: claiming due tasks (long poll), reporting outcomes, syncing replies. */
@Module({
  imports: [IdentityModule],
  controllers: [WorkerTasksController, InboundController],
  providers: [DueSignals, WorkerTasksService, InboundService, ClientsRepository],
})
export class DeliveryModule {}
