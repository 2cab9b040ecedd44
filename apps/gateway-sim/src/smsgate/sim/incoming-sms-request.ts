import { IsBoolean, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** An SMS arriving on the simulated phone: from whom, what it says, and optionally on which SIM and when. */
export class IncomingSmsRequest {
  @IsString() @IsNotEmpty() @MaxLength(64) from!: string;
  @IsString() @IsNotEmpty() @MaxLength(10_000) message!: string;
  @IsOptional() @IsInt() @Min(1) @Max(3) simNumber?: number;
  /** When the SMS was sent to the phone; now when absent. */
  @IsOptional() @IsISO8601({ strict: true }) receivedAt?: string;
  /** The app was not running: the SMS is only in the phone's SMS store until an export or refresh finds it. */
  @IsOptional() @IsBoolean() missed?: boolean;
}
