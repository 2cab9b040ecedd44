// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { ArrayMaxSize, IsArray, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { HasNoNul, IsEntityId } from '../validation.js';

/** A client's replies from one number received before `before`, newest first; answered `InboxMessageView[]`. */
export class MessagesFromQuery {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) from!: string;
  @IsInt() @Min(1) @Max(200) limit!: number;
  @IsOptional() @IsISO8601({ strict: true }) before?: string;
}

/** One thread's read mark: replies from `from` received after `since` (all, when null) are unread. */
export class UnreadMark {
  @IsString() @Length(1, 64) from!: string;
  @IsOptional() @IsISO8601({ strict: true }) since!: string | null;
}

/** How many replies of each thread are unread; answered `Record<from, number>` (threads with none left out). */
export class MessagesUnreadQuery {
  @IsEntityId() clientId!: number;
  @IsArray() @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => UnreadMark) threads!: UnreadMark[];
}

/** The client's senders with a reply whose text contains `text` (case ignored), most recent first; answered `string[]`. */
export class MessagesSearchSendersQuery {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 200) @HasNoNul() text!: string;
  @IsInt() @Min(1) @Max(1_000) limit!: number;
}
