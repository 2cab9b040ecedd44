import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { IsEntityId } from '../validation.js';
import type { PhoneKind } from './phone-view.js';

/** Enables or disables an own phone or a gateway; the kind must match, so a phone command never touches a gateway. */
export class PhoneSetActiveCommand {
  @IsEntityId() phoneId!: number;
  @IsIn(['own', 'gateway']) kind!: PhoneKind;
  @IsBoolean() active!: boolean;
  /** A client acting on its own phone: it must be this client's (otherwise not found). */
  @IsOptional() @IsEntityId() clientId?: number;
}
