import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from './constant-time-equal.js';

describe(constantTimeEqual.name, () => {
  it('is true only for the same value, as text or bytes', () => {
    expect(constantTimeEqual('smsq_key_abc', 'smsq_key_abc')).toBe(true);
    expect(constantTimeEqual(Buffer.from('tökén'), 'tökén')).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('smsq_key_abc', 'smsq_key_abd')).toBe(false);
    expect(constantTimeEqual('Smsq_key_abc', 'smsq_key_abc')).toBe(false);
  });

  it('answers false for values of different lengths instead of throwing', () => {
    expect(constantTimeEqual('smsq_key_abc', 'smsq_key_ab')).toBe(false);
    expect(constantTimeEqual('', 'x')).toBe(false);
    expect(constantTimeEqual('a'.repeat(10_000), 'a')).toBe(false);
  });
});
