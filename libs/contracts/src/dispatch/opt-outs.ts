import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { E164 } from '../phone-number.js';
import { HasNoNul, IsEntityId } from '../validation.js';

/** A reply whose whole text is one of these (case, surrounding spaces and punctuation ignored) opts its sender out. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
/** A reply whose whole text is one of these opts its sender back in. */
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;

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

/** Punctuation a keyword may carry around it: "Stop." and "STOP!" are STOP; "STOP sending" is not a keyword. */
const SURROUNDING = /^[\s\p{P}]+|[\s\p{P}]+$/gu;

/** A reply's text as keywords are compared: NFC, surrounding spaces and punctuation off, upper case. */
export function keywordForm(text: string): string {
  return text.normalize('NFC').replace(SURROUNDING, '').toUpperCase();
}

/** A client's own word as it is kept: one word of letters, digits or marks (any script), in keyword form. */
export function ownKeyword(word: string): string | null {
  const form = keywordForm(word);
  return /^[\p{L}\p{N}\p{M}]{1,32}$/u.test(form) ? form : null;
}

/** What a reply's text asks for, with the client's own words beside the standard ones; null when it is no keyword. */
export function keywordIntent(text: string, own: Pick<OptOutSettingsView, 'optOutWords' | 'optInWords'>): 'opt_out' | 'opt_in' | null {
  if (text.length > 64) return null;
  const form = keywordForm(text);
  // Standard words first: an own word of the other kind saved before that was refused must not turn START into an opt-out.
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(form)) return 'opt_out';
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(form)) return 'opt_in';
  if (own.optOutWords.includes(form)) return 'opt_out';
  if (own.optInWords.includes(form)) return 'opt_in';
  return null;
}

/**
 * Why these own words cannot be kept, naming the first word that would both opt out and opt in
 * (the standard words counted beside the client's own, compared as replies are); null when none
 * would. Both the API and the dashboard save settings through dispatch, which asks this.
 */
export function ownKeywordsConflict(own: Pick<OptOutSettingsView, 'optOutWords' | 'optInWords'>): string | null {
  const optOut = own.optOutWords.map(keywordForm);
  const optIn = own.optInWords.map(keywordForm);
  const standardOptIn = optOut.find((word) => (OPT_IN_KEYWORDS as readonly string[]).includes(word));
  if (standardOptIn !== undefined) return `opt_out_words: ${standardOptIn} is a standard opt-in word; a word cannot both opt out and opt in`;
  const standardOptOut = optIn.find((word) => (OPT_OUT_KEYWORDS as readonly string[]).includes(word));
  if (standardOptOut !== undefined) return `opt_in_words: ${standardOptOut} is a standard opt-out word; a word cannot both opt out and opt in`;
  const both = optOut.find((word) => optIn.includes(word));
  return both === undefined ? null : `${both} is in both opt_out_words and opt_in_words; a word cannot both opt out and opt in`;
}
