import { describe, expect, it } from 'vitest';
import { smsParts } from './sms-parts.js';

describe(smsParts.name, () => {
  it.each([
    ['a short GSM text', 'Hello', 1],
    ['160 GSM characters', 'x'.repeat(160), 1],
    ['161 GSM characters', 'x'.repeat(161), 2],
    ['306 GSM characters', 'x'.repeat(306), 2],
    ['extension characters, which take two septets', '€'.repeat(81), 2],
    ['70 UCS-2 characters', 'ж'.repeat(70), 1],
    ['71 UCS-2 characters', 'ж'.repeat(71), 2],
  ])('counts %s', (_case, text, parts) => {
    expect(smsParts(text)).toBe(parts);
  });
});
