import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * What a worker may report of the task it holds: `sent` (handed to the carrier), `failed`, or
 * `delivered` (the carrier's delivery report came back; the task is then `sent` with delivered_at).
 */
export const REPORTED_STATUSES = ['sent', 'failed', 'delivered'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/** The final state a report leaves a task in: a delivered task is `sent`. */
export type ReportedOutcome = 'sent' | 'failed';

/**
 * The outcome of a claimed task, from the token that holds the claim. `failed` refunds the
 * task's credit exactly once, through dispatch's outbox.
 */
export class TaskReportCommand {
  @IsEntityId() tokenId!: number;
  @IsInt() @Min(1) id!: number;
  @IsIn(REPORTED_STATUSES) status!: ReportedStatus;
  @IsOptional() @IsString() @MaxLength(1000) error?: string;
}

export interface TaskReported {
  id: number;
  status: ReportedOutcome;
}
