import { IsEntityId } from '../validation.js';

export class KeyCreateCommand {
  @IsEntityId() clientId!: number;
}

/** The raw key appears here once and is never stored. */
export interface KeyCreated {
  keyId: number;
  prefix: string;
  apiKey: string;
}
