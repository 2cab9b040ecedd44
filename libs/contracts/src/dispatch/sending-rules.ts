// class-transformer's @Type reads decorator metadata through the Reflect API this polyfills.
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateIf, ValidateNested } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/**
 * How a client's tasks are spread over its phones (or its VIP gateways): `first`, the
 * specification's rule (the first usable phone by id; least recently used gateway in Profile B);
 * `spread`, the usable phone with the most room left today, then the least recently used;
 * `sticky`, the phone that last sent to the recipient while it is usable, else as `spread`.
 */
export const ROUTING_MODES = ['first', 'spread', 'sticky'] as const;
export type RoutingMode = (typeof ROUTING_MODES)[number];

/** How long a sticky recipient keeps its phone after its last task, unless the client sets otherwise. */
export const DEFAULT_STICKY_DAYS = 30;
export const MAX_STICKY_DAYS = 365;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `HH:MM`, 00:00 to 24:00. */
export const CLOCK_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Windows a client may set, at most. */
export const MAX_SEND_WINDOWS = 28;

const MINUTES_PER_DAY = 1440;
export const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

/**
 * Hours in which a client's normal tasks go out, on the days named, in the client's time zone.
 * `to` at or before `from` runs past midnight into the next day (22:00–06:00).
 */
export class SendWindow {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(7) @ArrayUnique() @IsIn(WEEKDAYS, { each: true }) days!: Weekday[];
  @IsString() @Matches(CLOCK_TIME) from!: string;
  @IsString() @Matches(CLOCK_TIME) to!: string;
}

/** A client's sending rules as dispatch keeps them; a client that never set them has the defaults. */
export interface SendingRulesView {
  routingMode: RoutingMode;
  stickyDays: number;
  /** Empty: no windows, tasks go out at any hour. */
  sendWindows: SendWindow[];
  /** The zone the windows are read in: the client's. */
  timeZone: string;
  /** Whether a normal task could go out now. */
  windowOpen: boolean;
  /** While the window is closed, when it next opens (ISO 8601); null while open or with no windows. */
  windowOpensAt: string | null;
}

export class SendingRulesGetQuery {
  @IsEntityId() clientId!: number;
  /** The client's time zone now (the gateway's record): the windows are read in it. */
  @IsString() @Length(1, 64) @HasNoNul() timeZone!: string;
}

/** Changes what is given; answered `SendingRulesView`. An empty `sendWindows` removes the windows. */
export class SendingRulesUpdateCommand extends SendingRulesGetQuery {
  @IsOptional() @IsIn(ROUTING_MODES) routingMode?: RoutingMode;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_STICKY_DAYS) stickyDays?: number;
  @IsOptional() @IsArray() @ArrayMaxSize(MAX_SEND_WINDOWS) @ValidateNested({ each: true }) @Type(() => SendWindow) sendWindows?: SendWindow[];
}

/** A phone's owner (or an admin, without clientId) lifts a pause at once; answered the phone's `PhoneView`. */
export class PhoneResumeCommand {
  @IsEntityId() phoneId!: number;
  @IsIn(['own', 'gateway']) kind!: 'own' | 'gateway';
  @IsOptional() @ValidateIf((_, value) => value !== undefined) @IsEntityId() clientId?: number;
}

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours! * 60 + minutes!;
}

/**
 * The windows as open ranges of minutes of the week (Monday 00:00 is 0), `[start, end)`, flat:
 * `[start1, end1, start2, end2, …]`, sorted and merged; a range over Sunday midnight is split in
 * two. Empty when there are no windows (always open), and one range over the whole week when they
 * cover it.
 */
export function weekMinutesOf(windows: readonly SendWindow[]): number[] {
  const ranges: Array<[number, number]> = [];
  for (const window of windows) {
    const from = minutesOf(window.from);
    const to = minutesOf(window.to);
    const length = to > from ? to - from : to + MINUTES_PER_DAY - from;
    for (const day of new Set(window.days)) {
      const start = WEEKDAYS.indexOf(day) * MINUTES_PER_DAY + from;
      const end = start + length;
      if (end <= MINUTES_PER_WEEK) ranges.push([start, end]);
      else ranges.push([start, MINUTES_PER_WEEK], [0, end - MINUTES_PER_WEEK]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged.flat();
}

/** The minute of the week (Monday 00:00 is 0) of `at` in `timeZone`. */
export function minuteOfWeek(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: string) => parts.find((one) => one.type === type)!.value;
  const day = WEEKDAYS.indexOf(part('weekday').toLowerCase().slice(0, 3) as Weekday);
  return day * MINUTES_PER_DAY + Number(part('hour')) * 60 + Number(part('minute'));
}

/** Whether a normal task may go out at `at` (no windows: always). */
export function isWindowOpen(weekMinutes: readonly number[], timeZone: string, at: Date): boolean {
  if (weekMinutes.length === 0) return true;
  const minute = minuteOfWeek(at, timeZone);
  for (let i = 0; i < weekMinutes.length; i += 2) if (minute >= weekMinutes[i]! && minute < weekMinutes[i + 1]!) return true;
  return false;
}

/** When the windows next open after `at`, to the minute; null when open at `at` or there are none. */
export function nextWindowOpening(weekMinutes: readonly number[], timeZone: string, at: Date): Date | null {
  if (isWindowOpen(weekMinutes, timeZone, at)) return null;
  const minute = minuteOfWeek(at, timeZone);
  let ahead = MINUTES_PER_WEEK;
  for (let i = 0; i < weekMinutes.length; i += 2) ahead = Math.min(ahead, (weekMinutes[i]! - minute + MINUTES_PER_WEEK) % MINUTES_PER_WEEK || MINUTES_PER_WEEK);
  const opening = Math.floor(at.getTime() / 60_000) * 60_000 + ahead * 60_000;
  // Across a daylight-saving change the wall clock moved by up to an hour: the first open minute near it.
  for (let shift = -60; shift <= 60; shift++) {
    const candidate = new Date(opening + shift * 60_000);
    if (candidate > at && isWindowOpen(weekMinutes, timeZone, candidate)) return candidate;
  }
  return new Date(opening);
}

/** A client's sending rules as the public API shows them (GET and PATCH /smsapi/sending-rules). */
export function sendingRulesBody(rules: SendingRulesView) {
  return {
    routing_mode: rules.routingMode,
    sticky_days: rules.stickyDays,
    send_windows: rules.sendWindows.map((window) => ({ days: window.days, from: window.from, to: window.to })),
    time_zone: rules.timeZone,
    window_open: rules.windowOpen,
    window_opens_at: rules.windowOpensAt,
  };
}

export type SendingRulesBody = ReturnType<typeof sendingRulesBody>;
