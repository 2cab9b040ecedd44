// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ValidateNested } from 'class-validator';
import { MAX_BATCH_ITEMS } from '../batch.js';
import { IsDeadline, IsEntityId, IsTaskKey } from '../validation.js';

/** Takes one credit for a task; repeating it for the same task key never takes a second one. */
export class DebitCommand {
  @IsTaskKey() taskKey!: string;
  @IsEntityId() clientId!: number;
  @IsDeadline() deadline!: string;
}

/** Several debits in one transaction, each answered as `DebitCommand` would be (`BatchAnswer<DebitResult>`). */
export class DebitBatchCommand {
  @ValidateNested({ each: true }) @Type(() => DebitCommand) @ArrayMinSize(1) @ArrayMaxSize(MAX_BATCH_ITEMS) debits!: DebitCommand[];
}

export interface DebitResult {
  taskKey: string;
  creditsRemaining: number;
  bucket: 'daily' | 'bonus';
}
