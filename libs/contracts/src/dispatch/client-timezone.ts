import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { HasNoNul, IsEntityId } from '../validation.js';

/**
 * The gateway changed a client's time zone: dispatch reads the local `scheduled_at` of the
 * client's tasks in the new zone from then on. Their instants do not move. `version` counts the
 * client's changes: one older than the latest dispatch has is ignored. Answered `Ok`; repeating it is harmless.
 */
export class ClientTimezoneChangedCommand {
  @IsEntityId() clientId!: number;
  @IsString() @Length(1, 64) @HasNoNul() timezone!: string;
  @IsInt() @Min(1) @Max(2_147_483_647) version!: number;
}
