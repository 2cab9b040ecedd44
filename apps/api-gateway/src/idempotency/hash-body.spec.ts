import { describe, expect, it } from 'vitest';
import { hashBody } from './idempotency.service.js';

describe(hashBody.name, () => {
  it('hashes the same JSON the same way whatever the key order', () => {
    expect(hashBody({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(hashBody({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  it('tells different bodies apart', () => {
    expect(hashBody({ message: 'a' })).not.toBe(hashBody({ message: 'b' }));
    expect(hashBody({ a: [1, 2] })).not.toBe(hashBody({ a: [2, 1] }));
    expect(hashBody({ a: '1' })).not.toBe(hashBody({ a: 1 }));
  });
});
