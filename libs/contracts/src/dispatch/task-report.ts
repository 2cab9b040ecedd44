// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_REPORT_BATCH } from '../gateway/public-limits.js';
import { MAX_REPORTED_PARTS } from '../sms-segments.js';
import { IsEntityId } from '../validation.js';

/**
 * What a worker may report of the task it holds: `sent` (handed to the carrier), `failed`, or
 * `delivered` (the carrier's delivery report came back; the task is then `sent` with delivered_at).
 */
export const REPORTED_STATUSES = ['sent', 'failed', 'delivered'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

/**
 * What a report of a batch (`task-statuses`) may say besides: `released`, a task its worker
 * claimed and never handed to the phone, given back with its attempt, due again at once.
 */
export const BATCH_REPORTED_STATUSES = [...REPORTED_STATUSES, 'released'] as const;
export type BatchReportedStatus = (typeof BATCH_REPORTED_STATUSES)[number];

/**
 * Why a phone sent nothing, where it knows (additive to `failed` + `retry`): `carrier_volume`, the
 * carrier or Android refused for volume (SMS Gateway for Android's `RESULT_ERROR_LIMIT_EXCEEDED`):
 * the phone is then paused and its waiting tasks move to other phones. `cannot_decrypt`, an
 * encrypted message its worker could not open (no passphrase, or another): failed for good, refunded once.
 */
export const FAILURE_REASONS = ['carrier_volume', 'cannot_decrypt'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];


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
  /** With `failed` only: why nothing was sent, where the phone knows. */
  @IsOptional() @IsIn(FAILURE_REASONS) reason?: FailureReason;
  /** With `sent`, an encrypted message's parts as its worker counted the plaintext. */
  @IsOptional() @IsInt() @Min(1) @Max(MAX_REPORTED_PARTS) segments?: number;
  /** The phone or gateway the reporting token is bound to, if any: a report is contact. */
  @IsOptional() @IsEntityId() phoneId?: number;
}

export interface TaskReported {
  id: number;
  status: ReportedOutcome;
}

/** One report of a `TaskReportBatchCommand`: what `TaskReportCommand` carries of its task, or its release (without `error` or `retry`). */
export class TaskReportItem {
  @IsInt() @Min(1) id!: number;
  @IsIn(BATCH_REPORTED_STATUSES) status!: BatchReportedStatus;
  @IsOptional() @IsString() @MaxLength(1000) error?: string;
  @IsOptional() @IsBoolean() retry?: boolean;
  @IsOptional() @IsIn(FAILURE_REASONS) reason?: FailureReason;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_REPORTED_PARTS) segments?: number;
}

/**
 * Many reports of one token at once (`task-statuses`): answered `BatchAnswer<TaskReported>`, one
 * result per report in order, each what `TaskReportCommand` would have answered for it alone; a
 * `released` one answers `pending`, or not found when the token holds no claim on the task.
 */
export class TaskReportBatchCommand {
  @IsEntityId() tokenId!: number;
  @IsOptional() @IsEntityId() phoneId?: number;
  @ValidateNested({ each: true }) @Type(() => TaskReportItem) @ArrayMinSize(1) @ArrayMaxSize(MAX_REPORT_BATCH) reports!: TaskReportItem[];
}
