import { SimLimitsBody } from '../../shared/sim-limits.js';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsPositive, IsString, IsUrl, Length, Max, Min, ValidateIf } from 'class-validator';
import { PLAN_NAMES, type PlanName } from '@smsq/contracts';
import { trimmed } from '../../auth/dto/credentials.body.js';

/** POST /api/admin/clients: with email and password, a user who signs in as that client as well. */
export class ClientCreateBody {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsIn(PLAN_NAMES) plan?: PlanName;
  @IsOptional() @IsString() @Length(1, 64) timezone?: string;
  @IsOptional() @Transform(trimmed) @IsString() @Length(3, 254) @IsEmail() email?: string;
  @IsOptional() @IsString() @Length(12, 200) password?: string;
}

/** PUT /api/admin/clients/:id/plan; billing decides which plans take `daily` and `phones`. */
export class PlanBody {
  @IsIn(PLAN_NAMES) plan!: PlanName;
  @IsOptional() @IsInt() @Min(0) @Max(10_000_000) daily?: number;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) phones?: number;
}

export class CreditsBody {
  @IsInt() @Min(1) @Max(10_000_000) amount!: number;
}

/** PUT /api/admin/clients/:id/disabled: a disabled client's API keys answer 401 until it is enabled again. */
export class ClientDisabledBody {
  @IsBoolean() disabled!: boolean;
}

/** POST /api/admin/gateways (Profile B): without clientId the gateway joins the shared pool. */
export class GatewayCreateBody {
  @IsString() @Length(1, 100) name!: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) url!: string;
  @IsOptional() @IsInt() @IsPositive() clientId?: number;
}

/** PATCH /api/admin/gateways/:id: enable or disable, set its SIM limits, pace, cap, jitter or SIMs (at least one). */
export class GatewayUpdateBody extends SimLimitsBody {
  @IsOptional() @IsBoolean() active?: boolean;
  /** Its SIM's number as typed (the gateway reads it as a recipient); null forgets it. */
  @ValidateIf((_, value) => value !== undefined && value !== null) @IsString() @Length(1, 64) number?: string | null;
}

/** POST /api/admin/worker-tokens: bound to one phone or gateway, or (Profile B) to none. */
export class WorkerTokenCreateBody {
  @IsOptional() @IsInt() @IsPositive() phoneId?: number;
}
