import { IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

export const REPORTED_STATUSES = ['sent', 'failed'] as const;
export type ReportedStatus = (typeof REPORTED_STATUSES)[number];

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
  status: ReportedStatus;
}
