import { MAX_JITTER_S, MAX_SIMS, MAX_SIM_LIMIT, MIN_SIM_LIMIT, type PhoneLimitsCommand } from '@smsq/contracts';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';

const DAILY = `dailyLimit must be a whole number from ${MIN_SIM_LIMIT.dailyLimit} to ${MAX_SIM_LIMIT}, or empty for no limit`;
const PER_MINUTE = `perMinute must be a whole number from ${MIN_SIM_LIMIT.perMinute} to ${MAX_SIM_LIMIT}, or empty for no limit`;
const MONTHLY = `monthlyRecipients must be a whole number from ${MIN_SIM_LIMIT.monthlyRecipients} to ${MAX_SIM_LIMIT}, or empty for no cap`;
const JITTER = `jitter must be a whole number of seconds from 0 to ${MAX_JITTER_S}, or empty for none`;
const SIMS = `sims must be 1 or ${MAX_SIMS}`;

/** A phone's or gateway's SIM limits in a PATCH body: left out, it stays; null removes it (sims has no null: a phone has a SIM). */
export class SimLimitsBody {
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: DAILY }) @Min(MIN_SIM_LIMIT.dailyLimit, { message: DAILY }) @Max(MAX_SIM_LIMIT, { message: DAILY }) dailyLimit?: number | null;
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: PER_MINUTE }) @Min(MIN_SIM_LIMIT.perMinute, { message: PER_MINUTE }) @Max(MAX_SIM_LIMIT, { message: PER_MINUTE }) perMinute?: number | null;
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: MONTHLY }) @Min(MIN_SIM_LIMIT.monthlyRecipients, { message: MONTHLY }) @Max(MAX_SIM_LIMIT, { message: MONTHLY }) monthlyRecipients?: number | null;
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: JITTER }) @Min(0, { message: JITTER }) @Max(MAX_JITTER_S, { message: JITTER }) jitter?: number | null;
  @ValidateIf((_, value) => value !== undefined) @IsInt({ message: SIMS }) @Min(1, { message: SIMS }) @Max(MAX_SIMS, { message: SIMS }) sims?: number;
}

type SimLimitsCommand = Pick<PhoneLimitsCommand, 'dailyLimit' | 'perMinute' | 'monthlyRecipients' | 'jitter' | 'sims'>;

const SIM_LIMIT_FIELDS = ['dailyLimit', 'perMinute', 'monthlyRecipients', 'jitter', 'sims'] as const satisfies ReadonlyArray<keyof SimLimitsBody & keyof SimLimitsCommand>;

/** What a PATCH that changes nothing is told to give. */
export const SIM_LIMIT_NAMES = SIM_LIMIT_FIELDS.join(', ');

/** Whether the body sets any limit. */
export function setsSimLimits(body: SimLimitsBody): boolean {
  return SIM_LIMIT_FIELDS.some((field) => body[field] !== undefined);
}

/** The limits as the phoneSetLimits command takes them: only those given. */
export function simLimitsOf(body: SimLimitsBody): SimLimitsCommand {
  return Object.fromEntries(SIM_LIMIT_FIELDS.flatMap((field) => (body[field] === undefined ? [] : [[field, body[field]]])));
}
