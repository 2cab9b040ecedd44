import { IsString, Length } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/**
 * The gateway changed a client's time zone: dispatch writes the local `scheduled_at` text of the
 * client's tasks again in the new zone. Their instants do not move. Answered `Ok`; repeating it is harmless.
 */
export class ClientTimezoneChangedCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) @HasNoNul() timezone!: string;
}
