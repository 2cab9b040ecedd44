import { IsInt, Min } from 'class-validator';
import { IsDeadline, IsEntityId, IsTaskKey } from '../validation.js';

/**
 * Queues a failed task of this client again as a new task (same recipient and message, due now,
 * routed afresh, one new credit), with the same one-outcome guarantees as create-task. Only a
 * `failed` task can be resent (`conflict` otherwise).
 */
export class TaskResendCommand {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(1) id!: number;
  @IsTaskKey() taskKey!: string;
  @IsDeadline() deadline!: string;
}
