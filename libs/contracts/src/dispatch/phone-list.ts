import { IsIn, IsInt, IsOptional, Length, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { E164 } from '../phone-number.js';
import { HasNoNul, IsEntityId } from '../validation.js';
import { MAX_JITTER_S, MAX_SIMS, MAX_SIM_LIMIT, MIN_SIM_LIMIT, type PhoneKind, type PhoneView } from './phone-view.js';

/** Phones or gateways: one client's (its own phones, or its VIP gateways), or all (an admin). */
export class PhoneListQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsOptional() @IsIn(['own', 'gateway']) kind?: PhoneKind;
}

export interface PhoneDetails extends PhoneView {
  lastAssignedAt: string | null;
  /** Tasks it reported sent since the start of today (UTC). */
  sentToday: number;
  /** SMS parts it was handed today in its owner's time zone, what its daily limit counts. */
  partsToday: number;
  /** Distinct recipients it was given this calendar month in its owner's time zone, what its cap counts. */
  recipientsThisMonth: number;
  /** Tasks due now that wait for it (pending, their time come). */
  waitingTasks: number;
}

/**
 * Sets a phone's or gateway's SIM limits; a field left out stays as it is, null removes the
 * limit. The kind must match; with clientId the phone must be that client's (otherwise not
 * found). Answered the `PhoneView`.
 */
export class PhoneLimitsCommand {
  @IsEntityId() phoneId!: number;
  @IsIn(['own', 'gateway']) kind!: PhoneKind;
  @IsOptional() @IsEntityId() clientId?: number;
  /** SMS per day in the owner's time zone; 0 sends nothing. */
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt() @Min(MIN_SIM_LIMIT.dailyLimit) @Max(MAX_SIM_LIMIT) dailyLimit?: number | null;
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt() @Min(MIN_SIM_LIMIT.perMinute) @Max(MAX_SIM_LIMIT) perMinute?: number | null;
  /** Distinct recipients per calendar month in the owner's time zone; 0 sends to nobody new. */
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt() @Min(MIN_SIM_LIMIT.monthlyRecipients) @Max(MAX_SIM_LIMIT) monthlyRecipients?: number | null;
  /** The longest random extra pause between sends, seconds. */
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt() @Min(0) @Max(MAX_JITTER_S) jitter?: number | null;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_SIMS) sims?: number;
  /** The owner's time zone, whose days `dailyLimit` counts; absent: SMSQ_TIMEZONE. */
  @IsOptional() @IsString() @Length(1, 64) @HasNoNul() timeZone?: string;
}

/**
 * A phone as the public API shows it (GET /smsapi/phones, and the `data` of `phone.silent` and
 * `phone.online` webhook events).
 */
export function phoneBody(phone: PhoneDetails) {
  return {
    id: phone.id,
    name: phone.name,
    number: phone.number,
    kind: phone.kind,
    state: phone.state,
    active: phone.active,
    last_contact_at: phone.lastContactAt,
    last_seen_at: phone.lastSeenAt,
    daily_limit: phone.dailyLimit,
    per_minute: phone.perMinute,
    monthly_recipients: phone.monthlyRecipients,
    jitter: phone.jitter,
    sims: phone.sims,
    sent_today: phone.sentToday,
    parts_today: phone.partsToday,
    recipients_this_month: phone.recipientsThisMonth,
    paused_until: phone.pausedUntil,
    pause_reason: phone.pauseReason,
    waiting_tasks: phone.waitingTasks,
    health: phone.health && {
      battery_percent: phone.health.batteryPercent,
      charging: phone.health.charging,
      connection: phone.health.connection,
      reported_at: phone.health.reportedAt,
    },
  };
}

export type PhoneBody = ReturnType<typeof phoneBody>;

/** Records (or with null, forgets) a phone's number, E.164 as the gateway normalised it; with clientId it must be that client's (otherwise not found). Answered the `PhoneView`. */
export class PhoneSetNumberCommand {
  @IsEntityId() phoneId!: number;
  @IsIn(['own', 'gateway']) kind!: PhoneKind;
  @IsOptional() @IsEntityId() clientId?: number;
  @ValidateIf((_, value) => value !== null) @IsString() @Matches(E164) number!: string | null;
}

/** Renames a phone; with clientId it must be that client's (otherwise not found). */
export class PhoneRenameCommand {
  @IsEntityId() phoneId!: number;
  @IsOptional() @IsEntityId() clientId?: number;
  @IsString() @Length(1, 100) @HasNoNul() name!: string;
}
