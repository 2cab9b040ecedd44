import { constantTimeEqual } from '@smsq/platform';
import { randomBytes, randomInt, scrypt, type ScryptOptions } from 'node:crypto';

/** SMPP 3.4 allows a password of at most 8 characters: smsq issues exactly that many. */
export const SMPP_PASSWORD_LENGTH = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** scrypt's cost: 16 MiB and some 50 ms a check, since 8 characters are few to guess from. */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** 8 characters from [A-Za-z0-9], each drawn uniformly (about 47 bits). */
export function issueSmppPassword(): string {
  let password = '';
  for (let index = 0; index < SMPP_PASSWORD_LENGTH; index += 1) password += ALPHABET[randomInt(ALPHABET.length)];
  return password;
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) => scrypt(password, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64: the cost travels with the hash, so it can be raised later. */
export async function hashSmppPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether the password is the one hashed; a hash in any other form matches nothing. */
export async function verifySmppPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || hash === undefined) return false;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (!Object.values(cost).every((value) => Number.isInteger(value) && value > 0)) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length !== KEY_BYTES) return false;
  // constantTimeEqual is node's timingSafeEqual over digests of both: no length leaks either.
  return constantTimeEqual(await derive(password, Buffer.from(salt, 'base64'), cost), expected);
}
