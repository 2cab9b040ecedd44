import { Module } from '@nestjs/common';
import { taskIntakeProviders } from '@smsq/task-intake';
import { GatewayConfig } from '../config/gateway-config.js';
import { GatewayDatabase } from '../database/gateway-database.js';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { AdminModule } from '../admin/admin.module.js';
import { ClientTasksController } from './client-tasks.controller.js';
import { ClientTasksService } from './client-tasks.service.js';
import { TasksMessagesController } from './tasks-messages.controller.js';

/** The client-facing task API: create-task, create-tasks (also for the dashboard), and reading or cancelling one's own tasks. */
@Module({
  imports: [IdentityModule, RateLimitModule, AdminModule, TemplatesModule],
  controllers: [ClientTasksController, TasksMessagesController],
  providers: [ClientTasksService, IdempotencyService, IdempotencyRepository, ...taskIntakeProviders({ settings: GatewayConfig, database: GatewayDatabase, schema: 'gateway' })],
})
export class TasksModule {}
