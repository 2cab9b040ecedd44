import { IsIn, IsOptional } from 'class-validator';
import { PLAN_NAMES, type PlanName } from '../plans.js';
import { IsEntityId } from '../validation.js';

/** Opens the credit account of a new client (idempotent: an existing account is returned as it is). */
export class AccountOpenCommand {
  @IsEntityId() clientId!: number;
  @IsOptional() @IsIn(PLAN_NAMES) plan?: PlanName;
}
