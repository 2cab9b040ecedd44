// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { MAX_SEALED_REPLY_LENGTH, REPLY_KEYWORDS, type ReplyKeyword } from '../sealed-messages.js';
import { IsEntityId } from '../validation.js';

/** One inbound SMS, its owner already decided by the gateway (null when nobody could be found). */
export class InboundMessage {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsOptional() @IsEntityId() phoneId?: number;
  @IsString() @Matches(/^\+?[0-9A-Za-z][0-9A-Za-z .-]{0,31}$/) from!: string;
  /** At most REPLY_MAX_CODE_POINTS code points; sealed (`encrypted`), at most MAX_SEALED_REPLY_LENGTH characters. */
  @IsString() @Length(0, MAX_SEALED_REPLY_LENGTH) message!: string;
  /** Sealed by the worker with the client's passphrase: stored and shown as given. */
  @IsOptional() @IsBoolean() encrypted?: boolean;
  /** An encrypted reply's keyword, as its worker read the plaintext; absent when it is none. */
  @IsOptional() @IsIn(REPLY_KEYWORDS) keyword?: ReplyKeyword;
  @IsISO8601({ strict: true }) receivedAt!: string;
  @IsOptional() @IsString() @Length(1, 200) externalId?: string;
}

/** Stores replies; the same message synced twice is stored once. */
export class MessagesStoreCommand {
  @ValidateNested({ each: true }) @Type(() => InboundMessage) @ArrayMinSize(1) @ArrayMaxSize(500) messages!: InboundMessage[];
}

export interface MessagesStored {
  stored: number;
  duplicates: number;
}
