import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from './base64url.js';
import { isSealedMessage, maxSealedLength, parseSealedMessage } from './sealed-message.js';
import { SealedMessageError, type SealedMessageProblem } from './sealed-message-error.js';

const KEY_ID = encodeBase64Url(Uint8Array.from({ length: 16 }, (_, i) => i));
const NONCE = encodeBase64Url(Uint8Array.from({ length: 12 }, (_, i) => 0x10 + i));
const CIPHERTEXT = encodeBase64Url(Uint8Array.from({ length: 17 }, (_, i) => 0x20 + i));
const WELL_FORMED = `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT}`;

function problemOf(text: string): { problem: SealedMessageProblem; message: string } {
  try {
    parseSealedMessage(text);
  } catch (error) {
    if (error instanceof SealedMessageError) return { problem: error.problem, message: error.message };
    throw error;
  }
  throw new Error(`${JSON.stringify(text)} was read as a sealed message`);
}

describe(parseSealedMessage.name, () => {
  it('reads the version, key id, nonce, ciphertext and the header that is authenticated', () => {
    const sut = parseSealedMessage(WELL_FORMED);

    expect(sut).toEqual({
      version: 1,
      keyId: KEY_ID,
      nonce: Uint8Array.from({ length: 12 }, (_, i) => 0x10 + i),
      ciphertext: Uint8Array.from({ length: 17 }, (_, i) => 0x20 + i),
      header: `$smsq$1$${KEY_ID}$${NONCE}$`,
    });
    expect(KEY_ID).toHaveLength(22);
    expect(NONCE).toHaveLength(16);
  });

  it('reads a ciphertext of only the 16-byte tag (an empty text)', () => {
    const tagOnly = encodeBase64Url(new Uint8Array(16));
    expect(parseSealedMessage(`$smsq$1$${KEY_ID}$${NONCE}$${tagOnly}`).ciphertext).toHaveLength(16);
  });

  it.each(['Hello, your code is 1234', '', 'smsq$1$', '$SMSQ$1$', ' $smsq$1$', '$smsq1$'])('says %j is not sealed', (text) => {
    expect(problemOf(text)).toEqual({
      problem: 'not_sealed',
      message: 'The message is not encrypted: an encrypted message starts with $smsq$.',
    });
  });

  it('says which version it cannot read', () => {
    expect(problemOf(`$smsq$2$${KEY_ID}$${NONCE}$${CIPHERTEXT}`)).toEqual({
      problem: 'unsupported_version',
      message: 'The encrypted message uses version 2 of the encryption format, which this version of smsq cannot read; it reads version 1.',
    });
  });

  it.each([`$smsq$v1$${KEY_ID}$${NONCE}$${CIPHERTEXT}`, `$smsq$01$${KEY_ID}$${NONCE}$${CIPHERTEXT}`, '$smsq$1.0', `$smsq$2`])(
    'refuses %j as another version',
    (text) => {
      expect(problemOf(text).problem).toBe('unsupported_version');
    },
  );

  const MALFORMED: [string, string, string][] = [
    ['nothing after the prefix', '$smsq$', 'it has no version after $smsq$'],
    ['no version', `$smsq$$${KEY_ID}$${NONCE}$${CIPHERTEXT}`, 'it has no version after $smsq$'],
    ['only the version', '$smsq$1$', 'it must be $smsq$1$ followed by the key id, the nonce and the ciphertext, separated by "$"'],
    ['no ciphertext field', `$smsq$1$${KEY_ID}$${NONCE}`, 'it must be $smsq$1$ followed'],
    ['a field too many', `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT}$`, 'it must be $smsq$1$ followed'],
    ['an empty ciphertext', `$smsq$1$${KEY_ID}$${NONCE}$`, 'its ciphertext is 0 characters long; even an empty text encrypts to at least 22'],
    ['a ciphertext shorter than the tag', `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT.slice(0, 20)}`, 'its ciphertext is 20 characters long; even an empty text'],
    ['a ciphertext of an impossible length', `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT}AA`, 'its ciphertext is 25 characters long, a length base64url never has'],
    ['a short key id', `$smsq$1$${KEY_ID.slice(1)}$${NONCE}$${CIPHERTEXT}`, 'its key id is 21 characters long; it must be 22'],
    ['a long key id', `$smsq$1$${KEY_ID}A$${NONCE}$${CIPHERTEXT}`, 'its key id is 23 characters long; it must be 22'],
    ['a short nonce', `$smsq$1$${KEY_ID}$${NONCE.slice(1)}$${CIPHERTEXT}`, 'its nonce is 15 characters long; it must be 16'],
    ['a padded key id', `$smsq$1$${KEY_ID}==$${NONCE}$${CIPHERTEXT}`, 'its key id contains "=", which is not one of the base64url characters (A-Z, a-z, 0-9, "-" and "_")'],
    ['base64 "+" in the nonce', `$smsq$1$${KEY_ID}$+${NONCE.slice(1)}$${CIPHERTEXT}`, 'its nonce contains "+"'],
    ['base64 "/" in the ciphertext', `$smsq$1$${KEY_ID}$${NONCE}$/${CIPHERTEXT.slice(1)}`, 'its ciphertext contains "/"'],
    ['a line break at the end', `${WELL_FORMED}\n`, 'its ciphertext contains "\\n"'],
    ['a space inside', `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT.slice(0, 5)} ${CIPHERTEXT.slice(5)}`, 'its ciphertext contains " "'],
    ['a non-ASCII letter', `$smsq$1$${KEY_ID.slice(0, 21)}é$${NONCE}$${CIPHERTEXT}`, 'its key id contains "é"'],
    // KEY_ID ends in "w" (110000: 4 bits unused) and CIPHERTEXT in "A" (2 unused): "x" and "B" set one.
    ['a key id whose last character sets unused bits', `$smsq$1$${KEY_ID.slice(0, 21)}x$${NONCE}$${CIPHERTEXT}`, 'its key id ends in "x", which base64url never writes there'],
    ['a ciphertext whose last character sets unused bits', `$smsq$1$${KEY_ID}$${NONCE}$${CIPHERTEXT.slice(0, -1)}B`, 'its ciphertext ends in "B", which base64url never writes there'],
  ];

  it.each(MALFORMED)('refuses %s as damaged, saying why', (_case, text, reason) => {
    const { problem, message } = problemOf(text);
    expect(problem).toBe('malformed');
    expect(message).toContain(`The encrypted message is damaged: ${reason}`);
  });
});

describe(isSealedMessage.name, () => {
  it('is true only for a well-formed sealed message of a version this code reads', () => {
    expect(isSealedMessage(WELL_FORMED)).toBe(true);
    expect(isSealedMessage('Your code is 1234')).toBe(false);
    expect(isSealedMessage(`$smsq$2$${KEY_ID}$${NONCE}$${CIPHERTEXT}`)).toBe(false);
    expect(isSealedMessage(`${WELL_FORMED} `)).toBe(false);
  });
});

describe(maxSealedLength.name, () => {
  it('is the 48-character header and the base64url of 4 bytes a code point plus the 16-byte tag', () => {
    expect(maxSealedLength(0)).toBe(48 + 22);
    expect(maxSealedLength(1)).toBe(48 + 27);
    expect(maxSealedLength(160)).toBe(48 + Math.ceil(((160 * 4 + 16) * 4) / 3));
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s code points', (count) => {
    expect(() => maxSealedLength(count)).toThrow(RangeError);
  });
});
