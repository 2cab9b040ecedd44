import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { MAX_TASKS_PER_REQUEST } from '@smsq/contracts';

/** One message as the page sends it; the public API's rules check it further (recipient, length, time). */
export class OutgoingSmsBody {
  @IsString() @Length(0, 64) recipient!: string;
  @IsString() @Length(0, 6_400) message!: string;
  @IsOptional() @IsString() @Length(0, 32) scheduledAt?: string;
}

/** POST /api/send/check: the messages to read as create-task would. */
export class SendCheckBody {
  @ValidateNested({ each: true }) @Type(() => OutgoingSmsBody) @ArrayMinSize(1) @ArrayMaxSize(MAX_TASKS_PER_REQUEST) messages!: OutgoingSmsBody[];
}

/** POST /api/send: the messages, and a key the page keeps for retries of the same send. */
export class SendBody extends SendCheckBody {
  @IsString() @Length(1, 255) idempotencyKey!: string;
}
