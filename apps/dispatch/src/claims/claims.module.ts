import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { DueSignalsModule } from '../due-signals/due-signals.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PhonesModule } from '../phones/phones.module.js';
import { RoutingModule } from '../routing/routing.module.js';
import { ClaimsController } from './claims.controller.js';
import { ClaimsRepository } from './claims.repository.js';
import { TaskClaimsService } from './task-claims.service.js';
import { TaskReportsRepository } from './task-reports.repository.js';
import { TaskReportsService } from './task-reports.service.js';

@Module({
  imports: [DatabaseModule, DueSignalsModule, OutboxModule, PhonesModule, RoutingModule],
  controllers: [ClaimsController],
  providers: [ClaimsRepository, TaskClaimsService, TaskReportsRepository, TaskReportsService],
})
export class ClaimsModule {}
