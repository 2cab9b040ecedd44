import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { PLAN_NAMES, type PlanName } from '../plans.js';
import { IsEntityId } from '../validation.js';

/** Changes a client's plan: the phone limit at once, the daily allowance from the next period. */
export class PlanSetCommand {
  @IsEntityId() clientId!: number;
  @IsIn(PLAN_NAMES) plan!: PlanName;
  @IsOptional() @IsInt() @Min(0) @Max(10_000_000) daily?: number;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) phones?: number;
}

export interface PlanView {
  clientId: number;
  plan: PlanName;
  dailyAllowance: number;
  phoneLimit: number;
}
