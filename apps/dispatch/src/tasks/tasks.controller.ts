import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ClientTimezoneChangedCommand,
  Patterns,
  TaskCancelCommand,
  TaskCreateBatchCommand,
  TaskCreateCommand,
  TaskFeedQuery,
  TaskGetQuery,
  TaskListQuery,
  TaskResendCommand,
  TaskSettleBatchCommand,
  TaskSettleCommand,
  type BatchAnswer,
  type Ok,
  type TaskCreated,
  type TaskFeed,
  type TaskPage,
  type TaskSettlement,
  type TaskView,
} from '@smsq/contracts';
import { ClientTimezoneService } from './client-timezone.service.js';
import { TaskCancelService } from './task-cancel.service.js';
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
    private readonly cancelling: TaskCancelService,
    private readonly timezones: ClientTimezoneService,
  ) {}

  @MessagePattern(Patterns.dispatch.taskCreate)
  create(@Payload() command: TaskCreateCommand): Promise<TaskCreated> {
    return this.creation.create(command);
  }

  @MessagePattern(Patterns.dispatch.taskCreateBatch)
  async createBatch(@Payload() command: TaskCreateBatchCommand): Promise<BatchAnswer<TaskCreated>> {
    return { results: await this.creation.createMany(command.creates) };
  }

  @MessagePattern(Patterns.dispatch.taskSettle)
  settle(@Payload() command: TaskSettleCommand): Promise<TaskSettlement> {
    return command.abandon ? this.settlement.abandon(command.taskKey) : this.settlement.settle(command.taskKey);
  }

  @MessagePattern(Patterns.dispatch.taskSettleBatch)
  async settleBatch(@Payload() command: TaskSettleBatchCommand): Promise<BatchAnswer<TaskSettlement>> {
    return { results: await this.settlement.settleMany(command.taskKeys) };
  }

  @MessagePattern(Patterns.dispatch.taskGet)
  get(@Payload() query: TaskGetQuery): Promise<TaskView> {
    return this.lookup.get(query);
  }

  @MessagePattern(Patterns.dispatch.taskCancel)
  cancel(@Payload() command: TaskCancelCommand): Promise<TaskView> {
    return this.cancelling.cancel(command);
  }

  @MessagePattern(Patterns.dispatch.taskList)
  list(@Payload() query: TaskListQuery): Promise<TaskPage> {
    return this.listing.list(query);
  }

  @MessagePattern(Patterns.dispatch.taskFeed)
  feed(@Payload() query: TaskFeedQuery): Promise<TaskFeed> {
    return this.listing.feed(query);
  }

  @MessagePattern(Patterns.dispatch.taskResend)
  resend(@Payload() command: TaskResendCommand): Promise<TaskCreated> {
    return this.resending.resend(command);
  }

  @MessagePattern(Patterns.dispatch.clientTimezoneChanged)
  timezoneChanged(@Payload() command: ClientTimezoneChangedCommand): Promise<Ok> {
    return this.timezones.timezoneChanged(command);
  }
}
