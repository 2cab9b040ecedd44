import { IsOptional, IsString, Length } from 'class-validator';

/** POST /api/keys: an optional name, so the client can tell its keys apart. */
export class KeyCreateBody {
  @IsOptional() @IsString() @Length(0, 100) name?: string;
}
