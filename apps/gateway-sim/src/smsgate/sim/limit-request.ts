import { IsInt, Max, Min, ValidateIf } from 'class-validator';

export class LimitRequest {
  /** The SMS the phone still sends before it refuses every further one with LIMIT_EXCEEDED (0: at once); null lifts the limit. */
  @ValidateIf((request: LimitRequest) => request.after !== null) @IsInt() @Min(0) @Max(1_000_000) after!: number | null;
}
