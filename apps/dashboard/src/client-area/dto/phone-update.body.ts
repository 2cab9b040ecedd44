import { IsBoolean, IsOptional, IsString, Length, ValidateIf } from 'class-validator';
import { SimLimitsBody } from '../../shared/sim-limits.js';

/** PATCH /api/phones/:id: rename, enable or disable, record its number (null forgets it), set its SIM limits, pace, cap, jitter or SIMs (at least one). */
export class PhoneUpdateBody extends SimLimitsBody {
  @IsOptional() @IsString() @Length(1, 100) name?: string;
  @IsOptional() @IsBoolean() active?: boolean;
  /** As typed; the gateway reads it as a recipient. */
  @ValidateIf((_, value) => value !== undefined && value !== null) @IsString() @Length(1, 64) number?: string | null;
}
