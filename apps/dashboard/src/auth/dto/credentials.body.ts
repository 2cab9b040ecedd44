import { Transform } from 'class-transformer';
import { IsEmail, IsString, Length } from 'class-validator';
import type { Credentials, PasswordChange } from '@smsq/dashboard-api';

/** Sign-up: a real address and a password of 12 to 200 characters. */
export class SignUpBody implements Credentials {
  @Transform(trimmed) @IsString() @Length(3, 254) @IsEmail() email!: string;
  @IsString() @Length(12, 200) password!: string;
}

/** Sign-in takes any non-empty password up to the sign-up limit; a wrong one is just wrong. */
export class SignInBody implements Credentials {
  @Transform(trimmed) @IsString() @Length(1, 254) email!: string;
  @IsString() @Length(1, 200) password!: string;
}

/** A new password, with the current one: the same rules as sign-up's. */
export class PasswordChangeBody implements PasswordChange {
  @IsString() @Length(1, 200) currentPassword!: string;
  @IsString() @Length(12, 200) newPassword!: string;
}

/** Addresses are compared trimmed and lower-cased; surrounding spaces from a paste are no error. */
export function trimmed({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? value.trim() : value;
}
