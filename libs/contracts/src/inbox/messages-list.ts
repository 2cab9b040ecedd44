import { IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** One page of replies, newest first; without clientId (an admin) every client's. */
export class MessagesListQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) @Max(200) pageSize!: number;
  /** Matches the sender's number or the text, case-insensitively. */
  @IsOptional() @IsString() @MaxLength(200) search?: string;
}

/**
 * The client's replies stored after the one of id `afterId`, oldest first, for the SMPP service to
 * relay as they come: only those stored a few seconds ago or earlier, so that one committed late
 * with a lower id is not passed over. Answered `InboxMessageView[]`.
 */
export class MessagesAfterQuery {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(0) afterId!: number;
  /** Replies received before this instant are not wanted (ISO 8601). */
  @IsOptional() @IsISO8601({ strict: true }) receivedSince?: string;
  @IsInt() @Min(1) @Max(500) limit!: number;
}

export interface InboxMessageView {
  id: number;
  clientId: number | null;
  phoneId: number | null;
  from: string;
  message: string;
  /** Sealed by its worker: `message` is the ciphertext. */
  encrypted: boolean;
  receivedAt: string;
  storedAt: string;
}

export interface InboxPage {
  items: InboxMessageView[];
  total: number;
  page: number;
  pageSize: number;
}
