import { IsIn, IsOptional, Length, IsString } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';
import type { PhoneKind, PhoneView } from './phone-view.js';

/** Phones or gateways: one client's (its own phones, or its VIP gateways), or all (an admin). */
export class PhoneListQuery {
  @IsOptional() @IsEntityId() clientId?: number;
  @IsOptional() @IsIn(['own', 'gateway']) kind?: PhoneKind;
}

export interface PhoneDetails extends PhoneView {
  lastAssignedAt: string | null;
  /** Tasks it reported sent since the start of today (UTC). */
  sentToday: number;
}

/** Renames a phone; with clientId it must be that client's (otherwise not found). */
export class PhoneRenameCommand {
  @IsEntityId() phoneId!: number;
  @IsOptional() @IsEntityId() clientId?: number;
  @IsString() @Length(1, 100) @HasNoNul() name!: string;
}
