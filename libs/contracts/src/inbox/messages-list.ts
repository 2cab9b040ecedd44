import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** One page of replies, newest first; without clientId (an admin) every client's. */
export class MessagesListQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsInt() @Min(1) page!: number;
  @IsInt() @Min(1) @Max(200) pageSize!: number;
  /** Matches the sender's number or the text, case-insensitively. */
  @IsOptional() @IsString() @MaxLength(200) search?: string;
}

export interface InboxMessageView {
  id: number;
  clientId: number | null;
  phoneId: number | null;
  from: string;
  message: string;
  receivedAt: string;
  storedAt: string;
}

export interface InboxPage {
  items: InboxMessageView[];
  total: number;
  page: number;
  pageSize: number;
}
