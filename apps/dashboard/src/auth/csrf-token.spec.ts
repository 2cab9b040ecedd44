import { describe, expect, it } from 'vitest';
import { csrfTokenFor, isValidCsrfToken } from './csrf-token.js';

describe(isValidCsrfToken.name, () => {
  const secret = 'a server secret of at least 32 characters';
  const browserId = 'A'.repeat(43);

  it('accepts the token made for this browser id under this secret', () => {
    expect(isValidCsrfToken(secret, browserId, csrfTokenFor(secret, browserId))).toBe(true);
  });

  it('refuses another browser’s token, another secret’s, a mangled one, none, and a browser without an id', () => {
    const token = csrfTokenFor(secret, browserId);

    expect(isValidCsrfToken(secret, 'B'.repeat(43), token)).toBe(false);
    expect(isValidCsrfToken(`${secret}!`, browserId, token)).toBe(false);
    expect(isValidCsrfToken(secret, browserId, `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`)).toBe(false);
    expect(isValidCsrfToken(secret, browserId, token.slice(1))).toBe(false);
    expect(isValidCsrfToken(secret, browserId, undefined)).toBe(false);
    expect(isValidCsrfToken(secret, browserId, [token, token])).toBe(false);
    expect(isValidCsrfToken(secret, undefined, token)).toBe(false);
  });

  it('makes tokens that are not the id itself and differ per id', () => {
    const token = csrfTokenFor(secret, browserId);

    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(browserId);
    expect(csrfTokenFor(secret, 'B'.repeat(43))).not.toBe(token);
  });
});
