import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsString, Matches, Max, Min, ValidateNested } from 'class-validator';
import { CLOCK_TIME, MAX_SEND_WINDOWS, MAX_STICKY_DAYS, ROUTING_MODES, WEEKDAYS, type RoutingMode, type Weekday } from '@smsq/contracts';
import type { SendingRulesChange, SendWindow } from '@smsq/dashboard-api';

const MODE = `routingMode must be one of ${ROUTING_MODES.join(', ')}`;
const STICKY_DAYS = `stickyDays must be a whole number from 1 to ${MAX_STICKY_DAYS}`;
const WINDOWS = `sendWindows must be a list of at most ${MAX_SEND_WINDOWS} windows (empty: any hour)`;
const DAYS = `days must name at least one day, each once, of ${WEEKDAYS.join(', ')}`;
const clock = (name: string) => `${name} must be a time of day like 08:00 (HH:MM, 00:00 to 24:00)`;

/** One window: a window with no day would never open, so the page is told rather than the window kept. */
export class SendWindowBody implements SendWindow {
  @IsArray({ message: DAYS }) @ArrayMinSize(1, { message: DAYS }) @ArrayMaxSize(WEEKDAYS.length, { message: DAYS }) @ArrayUnique({ message: DAYS }) @IsIn(WEEKDAYS, { each: true, message: DAYS }) days!: Weekday[];
  @IsString({ message: clock('from') }) @Matches(CLOCK_TIME, { message: clock('from') }) from!: string;
  @IsString({ message: clock('to') }) @Matches(CLOCK_TIME, { message: clock('to') }) to!: string;
}

/** PUT /api/settings/sending: the whole rules, as the Settings page's form holds them. */
export class SendingRulesBody implements SendingRulesChange {
  @IsIn(ROUTING_MODES, { message: MODE }) routingMode!: RoutingMode;
  @IsInt({ message: STICKY_DAYS }) @Min(1, { message: STICKY_DAYS }) @Max(MAX_STICKY_DAYS, { message: STICKY_DAYS }) stickyDays!: number;
  @IsArray({ message: WINDOWS }) @ArrayMaxSize(MAX_SEND_WINDOWS, { message: WINDOWS }) @ValidateNested({ each: true }) @Type(() => SendWindowBody) sendWindows!: SendWindowBody[];
}
