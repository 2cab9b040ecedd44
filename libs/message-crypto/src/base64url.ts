const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Each ASCII code's value in the alphabet, or -1. */
const VALUES: readonly number[] = Array.from({ length: 128 }, (_, code) => ALPHABET.indexOf(String.fromCharCode(code)));

export type Base64UrlDecoding =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  /** `character` is the first one outside the alphabet (a whole code point, so an emoji is shown whole). */
  | { ok: false; problem: 'character'; character: string }
  /** A length of 4n + 1 characters, which no byte string encodes to. */
  | { ok: false; problem: 'length' }
  /** The last character sets bits that encode no byte, so another text decodes to the same bytes. */
  | { ok: false; problem: 'non_canonical' };

/** base64url (RFC 4648 §5) without padding. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const group = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += ALPHABET[group >> 18] + ALPHABET[(group >> 12) & 63] + ALPHABET[(group >> 6) & 63] + ALPHABET[group & 63];
  }
  const left = bytes.length - i;
  if (left === 1) {
    const group = bytes[i] << 16;
    text += ALPHABET[group >> 18] + ALPHABET[(group >> 12) & 63];
  } else if (left === 2) {
    const group = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += ALPHABET[group >> 18] + ALPHABET[(group >> 12) & 63] + ALPHABET[(group >> 6) & 63];
  }
  return text;
}

/**
 * Strict, canonical base64url without padding: only the 64 characters of the alphabet, no `=`, no
 * whitespace, and exactly the text `encodeBase64Url` gives for the bytes. Without the last rule the
 * unused low bits of the last character could change and still decode to the same bytes.
 */
export function decodeBase64Url(text: string): Base64UrlDecoding {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || VALUES[code] < 0) return { ok: false, problem: 'character', character: String.fromCodePoint(text.codePointAt(i)!) };
  }
  if (text.length % 4 === 1) return { ok: false, problem: 'length' };

  const bytes = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let bitCount = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    bits = ((bits << 6) | VALUES[text.charCodeAt(i)]) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      bytes[at++] = (bits >> bitCount) & 0xff;
    }
  }
  if (encodeBase64Url(bytes) !== text) return { ok: false, problem: 'non_canonical' };
  return { ok: true, bytes };
}
