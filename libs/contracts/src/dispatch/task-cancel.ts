import { IsInt } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * Cancels a client's task that no worker has been handed yet: it ends `failed` with the error
 * `cancelled` and its credit goes back once. Answers the task as it is now (`TaskView`); a task
 * already claimed, or final, is a `conflict`, and another client's task is `not_found`.
 */
export class TaskCancelCommand {
  @IsEntityId() clientId!: number;
  @IsInt() id!: number;
}

/** The error of a task its client cancelled. */
export const CANCELLED_ERROR = 'cancelled';
