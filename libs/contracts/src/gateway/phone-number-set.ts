import { IsIn, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import type { PhoneKind } from '../dispatch/phone-view.js';
import { IsEntityId } from '../validation.js';

/**
 * Records a phone's or gateway's number as a person typed it (the dashboard, the admin command
 * line): the gateway reads it as create-task reads a recipient, then tells dispatch
 * (`PhoneSetNumberCommand`); null forgets it. With clientId the phone must be that client's
 * (otherwise not found). Answered the `PhoneView`; a number that is not usable is 400
 * `invalid_request` naming `number`.
 */
export class PhoneNumberSetCommand {
  @IsEntityId() phoneId!: number;
  @IsIn(['own', 'gateway']) kind!: PhoneKind;
  @IsOptional() @IsEntityId() clientId?: number;
  @ValidateIf((_, value) => value !== null) @IsString() @Length(1, 64) number!: string | null;
}
