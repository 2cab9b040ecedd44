import { ArrayMaxSize, IsArray, IsOptional, IsString, Length } from 'class-validator';

/** POST /api/smpp-credentials: both optional; the gateway applies the public API's rules to them. */
export class SmppCredentialCreateBody {
  @IsOptional() @IsString() @Length(0, 15) systemId?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @Length(0, 40, { each: true }) sourceAddresses?: string[];
}
