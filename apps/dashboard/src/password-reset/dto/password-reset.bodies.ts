import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';
import type { PasswordReset, PasswordResetRequest } from '@smsq/dashboard-api';
import { trimmed } from '../../auth/dto/credentials.body.js';

/** What users sign in with; any address is taken, so the answer tells nothing about it. */
export class PasswordResetRequestBody implements PasswordResetRequest {
  @Transform(trimmed) @IsString() @Length(1, 254) email!: string;
}

/** The token from the link and a new password under sign-up's rules. */
export class PasswordResetBody implements PasswordReset {
  @IsString() @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'token is not a password reset token; use the link from the message' }) token!: string;
  @IsString() @Length(12, 200) newPassword!: string;
}
