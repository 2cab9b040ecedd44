import { IsInt, IsOptional, IsString, IsUrl, Length, Min } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';
import type { PhoneView } from './phone-view.js';

/** Registers a client's own phone (Profile A) within the plan's phone limit; a known device id returns its phone. */
export class PhoneRegisterCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 100) @HasNoNul() name!: string;
  @IsOptional() @IsString() @Length(1, 200) @HasNoNul() deviceId?: string;
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) url?: string;
  @IsInt() @Min(0) phoneLimit!: number;
}

export interface PhoneRegistered {
  phone: PhoneView;
  /** false when the device id was known and its phone is returned. */
  created: boolean;
}
