// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsIn, IsISO8601, IsInt, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { MAX_BATCH_ITEMS } from '../batch.js';
import { MAX_SEALED_MESSAGE_LENGTH } from '../sealed-messages.js';
import { LOCAL_DATETIME } from '../time.js';
import { IsDeadline, IsEntityId, IsTaskKey } from '../validation.js';
import { TASK_PRIORITIES, type TaskPriority, type TaskView } from './task-view.js';

/**
 * Queues one SMS: choose the phone or gateway, debit one credit, store the task, as one outcome.
 * The body was validated and normalised by the gateway; dispatch checks the shape again.
 */
export class TaskCreateCommand {
  @IsTaskKey() taskKey!: string;
  @IsEntityId() clientId!: number;
  @IsString() @Matches(/^\+[1-9]\d{5,15}$/) recipient!: string;
  /** 1–1600 code points, so at most 3200 UTF-16 units; sealed (`encrypted`), at most MAX_SEALED_MESSAGE_LENGTH characters. */
  @IsString() @Length(1, MAX_SEALED_MESSAGE_LENGTH) message!: string;
  /** The phone_id the client asked for, when it was an integer; dispatch ignores it if unusable. */
  @IsOptional() @IsInt() requestedPhoneId?: number;
  @IsISO8601({ strict: true }) scheduledAt!: string;
  @Matches(LOCAL_DATETIME) scheduledLocal!: string;
  /** A task not sent by then ends failed (`expired`) and refunded; absent, dispatch's default maximum age applies. */
  @IsOptional() @IsISO8601({ strict: true }) expiresAt?: string;
  @IsDeadline() deadline!: string;
  /** `high` (one-time codes, alerts): ignores the client's send windows and is claimed before normal tasks. */
  @IsOptional() @IsIn(TASK_PRIORITIES) priority?: TaskPriority;
  /** Submitted over SMPP with a delivery receipt asked for: the task's end is relayed to the SMPP service. */
  @IsOptional() @IsBoolean() receipts?: boolean;
  /** The message is sealed (docs/guide/encryption.md): stored as given, its parts unknown until the worker reports them. */
  @IsOptional() @IsBoolean() encrypted?: boolean;
}

/**
 * The creates a gateway gathered while its previous batch was under way, each with the rules and
 * the answer of `TaskCreateCommand` (`BatchAnswer<TaskCreated>`), routed, debited and stored together.
 */
export class TaskCreateBatchCommand {
  @ValidateNested({ each: true }) @Type(() => TaskCreateCommand) @ArrayMinSize(1) @ArrayMaxSize(MAX_BATCH_ITEMS) creates!: TaskCreateCommand[];
}

export interface TaskCreated {
  task: TaskView;
  creditsRemaining: number;
}
