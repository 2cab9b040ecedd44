import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

/** PATCH /api/phones/:id: rename, enable or disable (at least one). */
export class PhoneUpdateBody {
  @IsOptional() @IsString() @Length(1, 100) name?: string;
  @IsOptional() @IsBoolean() active?: boolean;
}
