import { IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * What a worker may report of the task it holds: `sent` (handed to the carrier), `failed`, or
 * `delivered` (the carrier's delivery report came back; the task is then `sent` with delivered_at).
 */
export const REPORTED_STATUSES = ['sent', 'failed', 'delivered'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/** The state a report leaves a task in: a delivered task is `sent`; a retried failure `pending` again. */
export type ReportedOutcome = 'sent' | 'failed' | 'pending';

/**
 * The outcome of a claimed task, from the token that holds the claim. `failed` refunds the
 * task's credit exactly once, through dispatch's outbox.
 */
export class TaskReportCommand {
  @IsEntityId() tokenId!: number;
  @IsInt() @Min(1) id!: number;
  @IsIn(REPORTED_STATUSES) status!: ReportedStatus;
  @IsOptional() @IsString() @MaxLength(1000) error?: string;
  /**
   * With `failed` only: the phone's own word that nothing was sent. The task goes back to the
   * queue (on another online phone where there is one) until SMSQ_MAX_ATTEMPTS; then it fails.
   */
  @IsOptional() @IsBoolean() retry?: boolean;
  /** The phone or gateway the reporting token is bound to, if any: a report is contact. */
  @IsOptional() @IsEntityId() phoneId?: number;
}

export interface TaskReported {
  id: number;
  status: ReportedOutcome;
}
