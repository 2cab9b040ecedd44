import { IsArray, IsString, Length } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * Puts numbers on a signed-in client's opt-out list from the dashboard (typed, or a CSV import):
 * the gateway reads each as create-task reads a recipient, as for POST /smsapi/opt-outs, and
 * answers its body (`{ ok, added, cancelled }`), or `invalid_recipient` naming the first bad one.
 */
export class OptOutsAddFromDashboard {
  @IsEntityId() clientId!: number;
  @IsArray() numbers!: unknown[];
}

/** Takes a number off a signed-in client's list, read as a recipient; answered `Ok`, or not_found. */
export class OptOutRemoveFromDashboard {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) number!: string;
}
