import { Module } from '@nestjs/common';
import { BillingModule } from '../billing/billing.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { OptOutsModule } from '../opt-outs/opt-outs.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { ClientTimezoneService } from './client-timezone.service.js';
import { TaskCancelService } from './task-cancel.service.js';
import { TaskCreationService } from './task-creation.service.js';
import { TaskListRepository } from './task-list.repository.js';
import { TaskListService } from './task-list.service.js';
import { TaskLookupService } from './task-lookup.service.js';
import { TaskResendService } from './task-resend.service.js';
import { TaskSettlementService } from './task-settlement.service.js';
import { TasksController } from './tasks.controller.js';
import { TasksRepository } from './tasks.repository.js';

@Module({
  imports: [DatabaseModule, RoutingModule, BillingModule, DueSignalsModule, OutboxModule, OptOutsModule, ConversationsModule],
  controllers: [TasksController],
  providers: [TasksRepository, ClientTimezoneService, TaskCreationService, TaskCancelService, TaskSettlementService, TaskLookupService, TaskListRepository, TaskListService, TaskResendService],
})
export class TasksModule {}
