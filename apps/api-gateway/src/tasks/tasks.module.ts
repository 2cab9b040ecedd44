import { Module } from '@nestjs/common';
import { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { IdentityModule } from '../identity/identity.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { AbandonedCreatesRelay } from './abandoned-creates.relay.js';
import { AbandonedCreatesRepository } from './abandoned-creates.repository.js';
import { ClientTasksController } from './client-tasks.controller.js';
import { ClientTasksService } from './client-tasks.service.js';

/** The client-facing task API: create-task and reading one's own tasks. */
@Module({
  imports: [IdentityModule, RateLimitModule],
  controllers: [ClientTasksController],
  providers: [ClientTasksService, IdempotencyService, IdempotencyRepository, AbandonedCreatesRepository, AbandonedCreatesRelay],
})
export class TasksModule {}
