import { describe, expect, it } from 'vitest';
import { parseIdempotencyKey } from './idempotency-key.js';

describe(parseIdempotencyKey.name, () => {
  it('takes 1 to 255 characters', () => {
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
    expect(parseIdempotencyKey('k'.repeat(255))).toHaveLength(255);
    expect(() => parseIdempotencyKey('k'.repeat(256))).toThrow('Idempotency-Key');
    expect(() => parseIdempotencyKey('')).toThrow('Idempotency-Key');
  });
});
