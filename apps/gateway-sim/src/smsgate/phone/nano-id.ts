import { randomBytes } from 'node:crypto';

const ALPHABET = '_-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An id as the app makes its message, webhook and event ids (jnanoid's defaults: 21 URL-safe characters). */
export function nanoId(size = 21): string {
  return [...randomBytes(size)].map((byte) => ALPHABET[byte & 63]).join('');
}
