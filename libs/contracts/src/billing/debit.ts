import { IsDeadline, IsEntityId, IsTaskKey } from '../validation.js';

/** Takes one credit for a task; repeating it for the same task key never takes a second one. */
export class DebitCommand {
  @IsTaskKey() taskKey!: string;
  @IsEntityId() clientId!: number;
  @IsDeadline() deadline!: string;
}

export interface DebitResult {
  taskKey: string;
  creditsRemaining: number;
  bucket: 'daily' | 'bonus';
}
