import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from './base64url.js';

const text = (value: string) => new TextEncoder().encode(value);

// RFC 4648 §10, without padding.
const RFC_4648_VECTORS: [string, string][] = [
  ['', ''],
  ['f', 'Zg'],
  ['fo', 'Zm8'],
  ['foo', 'Zm9v'],
  ['foob', 'Zm9vYg'],
  ['fooba', 'Zm9vYmE'],
  ['foobar', 'Zm9vYmFy'],
];

describe(encodeBase64Url.name, () => {
  it.each(RFC_4648_VECTORS)('writes %j as %j', (plain, encoded) => {
    expect(encodeBase64Url(text(plain))).toBe(encoded);
  });

  it('uses "-" and "_" where base64 uses "+" and "/"', () => {
    expect(encodeBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(encodeBase64Url(new Uint8Array([0xff, 0xff, 0xff]))).toBe('____');
  });
});

describe(decodeBase64Url.name, () => {
  it.each(RFC_4648_VECTORS)('reads %j back from %j', (plain, encoded) => {
    expect(decodeBase64Url(encoded)).toEqual({ ok: true, bytes: text(plain) });
  });

  it('reads back every byte string it writes', () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
      expect(decodeBase64Url(encodeBase64Url(bytes))).toEqual({ ok: true, bytes });
    }
  });

  it.each(['Zm9v=', 'Zg==', 'Zm+v', 'Zm/v', 'Zm9v ', '\nZm9v', 'Zm9vé', 'Zm9v👍', 'Zm.v'])('refuses %j for a character outside the alphabet', (encoded) => {
    expect(decodeBase64Url(encoded)).toMatchObject({ ok: false, problem: 'character' });
  });

  it('names the offending character whole, an emoji included', () => {
    expect(decodeBase64Url('Zm9v👍')).toEqual({ ok: false, problem: 'character', character: '👍' });
  });

  it.each(['Z', 'Zm9vY', 'Zm9vYmFyZ'])('refuses %j, a length no byte string encodes to', (encoded) => {
    expect(decodeBase64Url(encoded)).toEqual({ ok: false, problem: 'length' });
  });

  it.each(['Zh', 'Zm9', 'Zm9vYh', 'Zm9vYmF', '-_9'])('refuses %j, whose last character sets unused bits', (encoded) => {
    expect(decodeBase64Url(encoded)).toEqual({ ok: false, problem: 'non_canonical' });
  });
});
