import { IsOptional } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * Revokes an API key; it stops working at once, cached or not. With `clientId` the key must
 * belong to that client (a client revoking its own key); otherwise it is not found.
 */
export class KeyRevokeCommand {
  @IsEntityId() keyId!: number;
  @IsOptional() @IsEntityId() clientId?: number;
}
