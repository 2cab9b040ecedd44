import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import { MAX_SEALED_MESSAGE_LENGTH, MAX_TASKS_PER_REQUEST, TASK_PRIORITIES, type TaskPriority } from '@smsq/contracts';

/** Room for the longest text in the longest characters, and for what the longest text seals to; create-task checks the length itself. */
export const OUTGOING_MESSAGE_MAX_LENGTH = Math.max(6_400, MAX_SEALED_MESSAGE_LENGTH);

/** One message as the page sends it: its text, or a template and its variables; the public API's rules check it further (recipient, length, time, the template's placeholders). */
export class OutgoingSmsBody {
  @IsString() @Length(0, 64) recipient!: string;
  @IsOptional() @IsString() @Length(0, OUTGOING_MESSAGE_MAX_LENGTH) message?: string;
  @IsOptional() @IsInt() @Min(1) templateId?: number;
  @IsOptional() @IsObject() variables?: Record<string, string>;
  @IsOptional() @IsString() @Length(0, 32) scheduledAt?: string;
  /** `high` (one-time codes, alerts): ignores the send windows and goes first. */
  @IsOptional() @IsIn(TASK_PRIORITIES, { message: `priority must be one of ${TASK_PRIORITIES.join(', ')}` }) priority?: TaskPriority;
  /** `message` is sealed in the page with the client's passphrase (docs/guide/encryption.md): passed on for create-task to check and store as it is. */
  @IsOptional() @IsBoolean() encrypted?: boolean;
}

/** POST /api/send/check: the messages to read as create-task would. */
export class SendCheckBody {
  @ValidateNested({ each: true }) @Type(() => OutgoingSmsBody) @ArrayMinSize(1) @ArrayMaxSize(MAX_TASKS_PER_REQUEST) messages!: OutgoingSmsBody[];
}

/** POST /api/send: the messages, and a key the page keeps for retries of the same send. */
export class SendBody extends SendCheckBody {
  @IsString() @Length(1, 255) idempotencyKey!: string;
}
