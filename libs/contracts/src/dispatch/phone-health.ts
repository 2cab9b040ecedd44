import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsEntityId } from '../validation.js';

/**
 * A `connection` a phone may report ("wifi", "LTE", "4G roaming"): 1 to 40 printable characters
 * (letters, marks, digits, punctuation, symbols, spaces), not only spaces.
 */
export const PHONE_CONNECTION_PATTERN = /^(?=.*\S)[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]{1,40}$/u;

/**
 * The health a phone or gateway reports of itself, recorded on the phone its worker token is
 * bound to with the time of the report. A report replaces the previous one whole: a field it
 * leaves out is unknown (null) from then on. At least one field is present.
 */
export class PhoneHealthReportCommand {
  @IsEntityId() phoneId!: number;
  @IsOptional() @IsInt() @Min(0) @Max(100) batteryPercent?: number;
  @IsOptional() @IsBoolean() charging?: boolean;
  @IsOptional() @IsString() @Matches(PHONE_CONNECTION_PATTERN) connection?: string;
}
