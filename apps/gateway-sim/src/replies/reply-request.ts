import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/** An SMS the simulated phone "received": who sent it and what it says. */
export class ReplyRequest {
  @IsString() @IsNotEmpty() @MaxLength(64) from!: string;
  @IsString() @IsNotEmpty() @MaxLength(10_000) message!: string;
}
