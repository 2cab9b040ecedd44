import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsOptional, IsUUID } from 'class-validator';
import { MAX_SETTLE_BATCH } from '../batch.js';
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

/**
 * `TaskSettleCommand` (without `abandon`) for many keys at once, answered `BatchAnswer<TaskSettlement>`
 * in order: billing's settlement sweep asks about the charges it holds this way.
 */
export class TaskSettleBatchCommand {
  @IsUUID(undefined, { each: true }) @ArrayMinSize(1) @ArrayMaxSize(MAX_SETTLE_BATCH) taskKeys!: string[];
}

export type TaskSettlement = { outcome: 'created'; task: TaskView } | { outcome: 'voided' };
