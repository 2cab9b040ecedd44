import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { E164 } from '../phone-number.js';
import { HasNoNul, IsEntityId } from '../validation.js';

/** A client's own words, each way, at most. */
export const MAX_OWN_KEYWORDS = 20;
/** Numbers one POST /smsapi/opt-outs adds, at most; the dashboard imports a longer CSV in several. */
export const MAX_OPT_OUTS_PER_REQUEST = 1_000;

/** Who put a number on the list, or took it off: a reply with a keyword, the API, or the dashboard. */
export const OPT_OUT_SOURCES = ['reply', 'api', 'dashboard'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** The error a queued task fails with when its recipient opts out. */
export const OPTED_OUT_ERROR = 'opted_out';

/** One number on a client's opt-out list. */
export interface OptOutView {
  number: string;
  optedOutAt: string;
  source: OptOutSource;
}

/** A page of the list, newest first; `nextCursor` asks for the page after. */
export interface OptOutPage {
  items: OptOutView[];
  nextCursor: string | null;
}

/** The client's own keywords (upper case, as compared) and whether an opt-out cancels what is queued. */
export interface OptOutSettingsView {
  optOutWords: string[];
  optInWords: string[];
  cancelQueued: boolean;
}

/** The list, newest first, `limit` at a time after `cursor`; `search` keeps numbers containing it. Answered `OptOutPage`. */
export class OptOutListQuery {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(1) @Max(1_000) limit!: number;
  @IsOptional() @IsString() @Length(1, 200) @HasNoNul() cursor?: string;
  @IsOptional() @IsString() @Length(1, 16) @Matches(/^\+?\d+$/) search?: string;
}

/** Puts numbers on the list (already E.164); one already on it keeps its date. Answered `OptOutsAdded`. */
export class OptOutAddCommand {
  @IsEntityId() clientId!: number;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_OPT_OUTS_PER_REQUEST) @Matches(E164, { each: true }) numbers!: string[];
  @IsIn(OPT_OUT_SOURCES) source!: OptOutSource;
}

export interface OptOutsAdded {
  /** Numbers newly on the list; the others were on it already. */
  added: number;
  /** Queued tasks to them cancelled and refunded. */
  cancelled: number;
}

/** Takes a number off the list; answered `Ok`, or not_found when it was not on it. */
export class OptOutRemoveCommand {
  @IsEntityId() clientId!: number;
  @Matches(E164) number!: string;
  @IsIn(OPT_OUT_SOURCES) source!: OptOutSource;
}

/** Which of these numbers are on the client's list, answered `string[]` (the Send page's preview). */
export class OptOutCheckQuery {
  @IsEntityId() clientId!: number;
  @IsArray() @ArrayMaxSize(10_000) @IsString({ each: true }) numbers!: string[];
}

/** The client's settings, answered `OptOutSettingsView`. */
export class OptOutSettingsQuery {
  @IsEntityId() clientId!: number;
}

/** Changes what is given; answered the `OptOutSettingsView`. Words are single words of letters or digits. */
export class OptOutSettingsUpdate {
  @IsEntityId() clientId!: number;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_OWN_KEYWORDS) @IsString({ each: true }) @Length(1, 32, { each: true }) optOutWords?: string[];
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_OWN_KEYWORDS) @IsString({ each: true }) @Length(1, 32, { each: true }) optInWords?: string[];
  @IsOptional() @IsBoolean() cancelQueued?: boolean;
}
