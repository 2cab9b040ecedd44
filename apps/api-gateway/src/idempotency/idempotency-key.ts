import { IDEMPOTENCY_KEY_MAX_LENGTH, InvalidRequestError } from '@smsq/contracts';

/** The Idempotency-Key header, if any; more than 255 characters is a bad request. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? undefined : header.trim();
  if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new InvalidRequestError(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  return key;
}
