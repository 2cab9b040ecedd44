import { IsOptional, IsString, IsUrl, Length } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/** Registers a client's own phone and issues the worker token bound to it (Profile A). */
export class ClientPhoneRegisterCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 100) @HasNoNul() name!: string;
  @IsOptional() @IsString() @Length(1, 200) @HasNoNul() deviceId?: string;
  /** Where a worker delivers this phone's SMS; a phone that runs its own sender has none. */
  @IsOptional() @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) url?: string;
}

export interface ClientPhoneRegistered {
  phoneId: number;
  workerToken: string;
}
