import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (or values derived from one) are equal, in time that depends on neither
 * their contents nor where they first differ. Both sides are hashed to 32 bytes first, so values
 * of different lengths are compared as fully as equal-length ones, with no early exit that would
 * tell the length of the expected one.
 */
export function constantTimeEqual(presented: string | Uint8Array, expected: string | Uint8Array): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}

function digest(value: string | Uint8Array): Buffer {
  return createHash('sha256').update(value).digest();
}
