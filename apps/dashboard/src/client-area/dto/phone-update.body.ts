import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';
import { SimLimitsBody } from '../../shared/sim-limits.js';

/** PATCH /api/phones/:id: rename, enable or disable, set its SIM limits, pace, cap, jitter or SIMs (at least one). */
export class PhoneUpdateBody extends SimLimitsBody {
  @IsOptional() @IsString() @Length(1, 100) name?: string;
  @IsOptional() @IsBoolean() active?: boolean;
}
