import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  Patterns,
  TaskClaimBatchCommand,
  TaskClaimCommand,
  TaskReleaseCommand,
  TaskReportBatchCommand,
  TaskReportCommand,
  type BatchAnswer,
  type Ok,
  type TaskClaim,
  type TaskClaimBatch,
  type TaskReported,
} from '@smsq/contracts';
import { TaskClaimsService } from './task-claims.service.js';
import { TaskReportsService } from './task-reports.service.js';

/** The delivery path as the gateway forwards it from worker tokens. */
@Controller()
export class ClaimsController {
  constructor(
    private readonly claims: TaskClaimsService,
    private readonly reports: TaskReportsService,
  ) {}

  @MessagePattern(Patterns.dispatch.taskClaim)
  claim(@Payload() command: TaskClaimCommand): Promise<TaskClaim> {
    return this.claims.claim(command);
  }

  @MessagePattern(Patterns.dispatch.taskClaimBatch)
  claimMany(@Payload() command: TaskClaimBatchCommand): Promise<TaskClaimBatch> {
    return this.claims.claimMany(command);
  }

  @MessagePattern(Patterns.dispatch.taskRelease)
  release(@Payload() command: TaskReleaseCommand): Promise<Ok> {
    return this.claims.release(command);
  }

  @MessagePattern(Patterns.dispatch.taskReport)
  report(@Payload() command: TaskReportCommand): Promise<TaskReported> {
    return this.reports.report(command);
  }

  @MessagePattern(Patterns.dispatch.taskReportBatch)
  reportMany(@Payload() command: TaskReportBatchCommand): Promise<BatchAnswer<TaskReported>> {
    return this.reports.reportMany(command);
  }
}
