import { IsBoolean, IsOptional } from 'class-validator';
import { IsTaskKey } from '../validation.js';
import type { TaskView } from './task-view.js';

/**
 * Decides a task key for good: the task exists (`created`), or it never will (`voided`, a later
 * create with that key is refused). Used when a create's outcome is unknown.
 *
 * With `abandon`, the caller has already told the client the task was not queued: a task that
 * exists but is still untouched (pending, never claimed) is failed and refunded, so the answer
 * the client got stays true; one that is already under way is left alone (`created`).
 */
export class TaskSettleCommand {
  @IsTaskKey() taskKey!: string;
  @IsOptional() @IsBoolean() abandon?: boolean;
}

export type TaskSettlement = { outcome: 'created'; task: TaskView } | { outcome: 'voided' };
