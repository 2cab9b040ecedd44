import { IsInt, Max, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** An admin grants bonus credits; they persist across daily periods. */
export class CreditsGrantCommand {
  @IsEntityId() clientId!: number;
  @IsInt() @Min(1) @Max(10_000_000) amount!: number;
}
