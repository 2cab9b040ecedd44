import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { normaliseRecipient } from './recipient.js';

const A = { profile: 'A' as const, defaultRegion: undefined };
const B = { profile: 'B' as const, defaultRegion: undefined };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a domain error';
  }
}

describe(normaliseRecipient.name, () => {
  it.each([
    ['+381641234567', '+381641234567'],
    ['+381 64 123-45-67', '+381641234567'],
    ['(064) 123.45.67', '+381641234567'],
    ['0641234567', '+381641234567'],
    ['00381641234567', '+381641234567'],
    ['+12125550123', '+12125550123'],
  ])('Profile A reads %s as %s', (input, e164) => {
    expect(normaliseRecipient(input, A)).toBe(e164);
  });

  it.each(['0111234567', '641234567', 'abc', '', '+', '+3816', '+38164123456789012', '+381 64 123 45 67 ext 2'])('Profile A refuses %j', (input) => {
    expect(codeOf(() => normaliseRecipient(input, A))).toBe('invalid_recipient');
  });

  it('Profile B needs a country code unless a default region is configured', () => {
    expect(codeOf(() => normaliseRecipient('0641234567', B))).toBe('invalid_recipient');
    expect(normaliseRecipient('0641234567', { profile: 'B', defaultRegion: 'RS' })).toBe('+381641234567');
    expect(normaliseRecipient('015123456789', { profile: 'B', defaultRegion: 'DE' })).toBe('+4915123456789');
    expect(normaliseRecipient('+447911123456', B)).toBe('+447911123456');
  });
});
