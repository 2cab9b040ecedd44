import { IsISO8601, IsInt, IsPositive, IsUUID, Matches } from 'class-validator';

/** Constraints shared by many payloads, so every receiver checks them the same way. */
export const IsEntityId = () => (target: object, key: string) => {
  IsInt()(target, key);
  IsPositive()(target, key);
};

export const IsTaskKey = () => IsUUID();

/** A command past its deadline is refused so a late delivery can never act behind the caller's back. */
export const IsDeadline = () => IsISO8601({ strict: true });

/** Text Postgres can store: no NUL character. */
export const HasNoNul = () => Matches(/^[^\u0000]*$/, { message: '$property must not contain NUL characters' });
