import { IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';

/** What a worker hands the gateway: the task's id (optional) and the SMS itself. */
export class SendRequest {
  @IsOptional() @IsInt() @Min(1) id?: number;
  @IsString() @IsNotEmpty() @MaxLength(64) recipient!: string;
  @IsString() @IsNotEmpty() @MaxLength(10_000) message!: string;
}
