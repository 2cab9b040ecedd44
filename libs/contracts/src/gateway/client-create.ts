import { HasNoNul } from '../validation.js';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PLAN_NAMES, type PlanName } from '../plans.js';

/** Creates a client and opens its credit account. The time zone is an IANA name (checked by the gateway). */
export class ClientCreateCommand {
  @IsString() @Length(1, 200) @HasNoNul() name!: string;
  @IsOptional() @IsIn(PLAN_NAMES) plan?: PlanName;
  @IsOptional() @IsString() @Length(1, 64) @HasNoNul() timezone?: string;
}

export interface ClientCreated {
  clientId: number;
}
