import { IsIn } from 'class-validator';
import { IsTaskKey } from '../validation.js';

export const REFUND_REASONS = ['task_failed', 'task_not_created', 'task_cancelled', 'task_expired'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Gives back the credit of a task; a task is refunded at most once, however often this arrives. */
export class RefundCommand {
  @IsTaskKey() taskKey!: string;
  @IsIn(REFUND_REASONS) reason!: RefundReason;
}

export interface RefundResult {
  taskKey: string;
  /** false when the task had no debit or was refunded already. */
  refunded: boolean;
  creditsRemaining: number | null;
}
