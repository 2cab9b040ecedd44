import { IsEntityId } from '../validation.js';

/** Revokes an API key; it stops working at once, cached or not. */
export class KeyRevokeCommand {
  @IsEntityId() keyId!: number;
}
