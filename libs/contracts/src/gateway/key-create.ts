import { IsOptional, IsString, Length } from 'class-validator';
import { IsEntityId } from '../validation.js';

export class KeyCreateCommand {
  @IsEntityId() clientId!: number;
  /** What the client calls the key, so it can tell its keys apart. */
  @IsOptional() @IsString() @Length(1, 100) name?: string;
}

/** The raw key appears here once and is never stored. */
export interface KeyCreated {
  keyId: number;
  prefix: string;
  apiKey: string;
}
