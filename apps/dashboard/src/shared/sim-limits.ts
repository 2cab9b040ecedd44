import { MAX_SIM_LIMIT, MIN_SIM_LIMIT } from '@smsq/contracts';
import { IsInt, IsOptional, Max, Min, ValidateIf } from 'class-validator';

const DAILY = `dailyLimit must be a whole number from ${MIN_SIM_LIMIT.dailyLimit} to ${MAX_SIM_LIMIT}, or empty for no limit`;
const PER_MINUTE = `perMinute must be a whole number from ${MIN_SIM_LIMIT.perMinute} to ${MAX_SIM_LIMIT}, or empty for no limit`;

/** A phone's or gateway's SIM limits in a PATCH body: left out, it stays; null removes it. */
export class SimLimitsBody {
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: DAILY }) @Min(MIN_SIM_LIMIT.dailyLimit, { message: DAILY }) @Max(MAX_SIM_LIMIT, { message: DAILY }) dailyLimit?: number | null;
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsInt({ message: PER_MINUTE }) @Min(MIN_SIM_LIMIT.perMinute, { message: PER_MINUTE }) @Max(MAX_SIM_LIMIT, { message: PER_MINUTE }) perMinute?: number | null;
}

/** Whether the body sets either limit. */
export function setsSimLimits(body: SimLimitsBody): boolean {
  return body.dailyLimit !== undefined || body.perMinute !== undefined;
}

/** The limits as the phoneSetLimits command takes them: only those given. */
export function simLimitsOf(body: SimLimitsBody): { dailyLimit?: number | null; perMinute?: number | null } {
  return { ...(body.dailyLimit === undefined ? {} : { dailyLimit: body.dailyLimit }), ...(body.perMinute === undefined ? {} : { perMinute: body.perMinute }) };
}
