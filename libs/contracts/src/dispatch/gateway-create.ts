import { IsOptional, IsString, IsUrl, Length } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/** Registers a pooled gateway (Profile B): in a client's VIP pool, or the shared pool without one. */
export class GatewayCreateCommand {
  @IsString() @Length(1, 100) @HasNoNul() name!: string;
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }) url!: string;
  @IsOptional() @IsEntityId() clientId?: number;
}
