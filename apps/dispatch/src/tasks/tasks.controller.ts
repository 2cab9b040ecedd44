import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Patterns,
  TaskCreateCommand,
  TaskGetQuery,
  TaskListQuery,
  TaskResendCommand,
  TaskSettleCommand,
  type TaskCreated,
  type TaskPage,
  type TaskSettlement,
  type TaskView,
} from '@smsq/contracts';
import { TaskCreationService } from './task-creation.service.js';
import { TaskListService } from './task-list.service.js';
import { TaskLookupService } from './task-lookup.service.js';
import { TaskResendService } from './task-resend.service.js';
import { TaskSettlementService } from './task-settlement.service.js';

@Controller()
export class TasksController {
  constructor(
    private readonly creation: TaskCreationService,
    private readonly settlement: TaskSettlementService,
    private readonly lookup: TaskLookupService,
    private readonly listing: TaskListService,
    private readonly resending: TaskResendService,
  ) {}

  @MessagePattern(Patterns.dispatch.taskCreate)
  create(@Payload() command: TaskCreateCommand): Promise<TaskCreated> {
    return this.creation.create(command);
  }

  @MessagePattern(Patterns.dispatch.taskSettle)
  settle(@Payload() command: TaskSettleCommand): Promise<TaskSettlement> {
    return command.abandon ? this.settlement.abandon(command.taskKey) : this.settlement.settle(command.taskKey);
  }

  @MessagePattern(Patterns.dispatch.taskGet)
  get(@Payload() query: TaskGetQuery): Promise<TaskView> {
    return this.lookup.get(query);
  }

  @MessagePattern(Patterns.dispatch.taskList)
  list(@Payload() query: TaskListQuery): Promise<TaskPage> {
    return this.listing.list(query);
  }

  @MessagePattern(Patterns.dispatch.taskResend)
  resend(@Payload() command: TaskResendCommand): Promise<TaskCreated> {
    return this.resending.resend(command);
  }
}
