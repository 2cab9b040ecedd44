import { Transform } from 'class-transformer';
import { IsString, Length } from 'class-validator';
import type { TimeZoneChange } from '@smsq/dashboard-api';
import { trimmed } from '../../auth/dto/credentials.body.js';

/** PUT /api/settings/time-zone: an IANA name, checked by the gateway as it checks a new client's. */
export class TimeZoneBody implements TimeZoneChange {
  @Transform(trimmed) @IsString() @Length(1, 64) timeZone!: string;
}
