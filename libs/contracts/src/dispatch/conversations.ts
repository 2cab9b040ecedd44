import { ArrayMaxSize, IsArray, IsInt, IsISO8601, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/** A thread's last message, shortened for the list. */
export const CONVERSATION_PREVIEW_LENGTH = 160;

export interface ConversationView {
  number: string;
  lastAt: string;
  lastText: string;
  /** The last message is sealed: `lastText` is not to be shown as text. */
  lastEncrypted: boolean;
  lastDirection: 'out' | 'in';
  /** The phone the latest reply came through, and when; null before any reply. */
  replyPhoneId: number | null;
  replyAt: string | null;
  /** When the client last opened the thread; replies received after it are unread. */
  readAt: string | null;
}

export interface ConversationPage {
  items: ConversationView[];
  nextCursor: string | null;
}

/**
 * The client's threads, newest first, `limit` after `cursor`; `search` keeps numbers containing
 * those digits, `numbers` only those numbers (a text search's hits). Answered `ConversationPage`.
 */
export class ConversationListQuery {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(1) @Max(100) limit!: number;
  @IsOptional() @IsString() @Length(1, 200) @HasNoNul() cursor?: string;
  @IsOptional() @IsString() @Matches(/^\+?\d{1,15}$/) search?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(1_000) @IsString({ each: true }) numbers?: string[];
}

/** The client's tasks to one number created before `before` (an instant), newest first; answered `TaskView[]`. */
export class ConversationTasksQuery {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) number!: string;
  @IsInt() @Min(1) @Max(200) limit!: number;
  @IsOptional() @IsISO8601({ strict: true }) before?: string;
}

/** The thread is read up to now; answered the `ConversationView`, or not_found. */
export class ConversationReadCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) number!: string;
}

/** The client's numbers whose tasks' text contains `text` (case ignored), at most `limit`; answered `string[]`. */
export class ConversationSearchQuery {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 200) @HasNoNul() text!: string;
  @IsInt() @Min(1) @Max(1_000) limit!: number;
}
