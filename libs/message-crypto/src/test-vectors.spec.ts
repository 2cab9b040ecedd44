import { beforeAll, describe, expect, it } from 'vitest';
import { encodeBase64Url } from './base64url.js';
import { openMessage, sealMessage } from './message-cipher.js';
import { MessageKey, PBKDF2_ITERATIONS } from './message-key.js';
import { parseSealedMessage } from './sealed-message.js';
import { SealedMessageError } from './sealed-message-error.js';
import { SEALED_MESSAGE_TEST_VECTORS } from './test-vectors.js';

function bytesOfHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function hexOf(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The raw PBKDF2 output, which MessageKey keeps inside WebCrypto; computed here to check `keyHex`. */
async function rawKey(passphrase: string, salt: Uint8Array<ArrayBuffer>): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveBits']);
  return hexOf(await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: PBKDF2_ITERATIONS }, material, 256));
}

describe('SEALED_MESSAGE_TEST_VECTORS', () => {
  /** One derivation per (passphrase, key id), as a receiver does. */
  const keys = new Map<string, MessageKey>();
  const rawKeys = new Map<string, string>();
  const keyOf = (vector: { passphrase: string; keyId: string }) => keys.get(`${vector.passphrase}$${vector.keyId}`)!;

  beforeAll(async () => {
    for (const vector of SEALED_MESSAGE_TEST_VECTORS) {
      const id = `${vector.passphrase}$${vector.keyId}`;
      if (keys.has(id)) continue;
      keys.set(id, await MessageKey.derive(vector.passphrase, vector.keyId));
      rawKeys.set(id, await rawKey(vector.passphrase, bytesOfHex(vector.saltHex)));
    }
  });

  it('has three vectors, two sharing a key', () => {
    expect(SEALED_MESSAGE_TEST_VECTORS).toHaveLength(3);
    expect(keys.size).toBe(2);
  });

  it.each(SEALED_MESSAGE_TEST_VECTORS.map((vector, i) => [i + 1, vector] as const))('vector %i: key id and key are the salt and PBKDF2 output', (_n, vector) => {
    expect(encodeBase64Url(bytesOfHex(vector.saltHex))).toBe(vector.keyId);
    expect(rawKeys.get(`${vector.passphrase}$${vector.keyId}`)).toBe(vector.keyHex);
  });

  it.each(SEALED_MESSAGE_TEST_VECTORS.map((vector, i) => [i + 1, vector] as const))('vector %i: sealing gives the sealed text', async (_n, vector) => {
    const sut = await sealMessage(keyOf(vector), vector.plaintext, { nonce: bytesOfHex(vector.nonceHex) });

    expect(sut).toBe(vector.sealed);
  });

  it.each(SEALED_MESSAGE_TEST_VECTORS.map((vector, i) => [i + 1, vector] as const))('vector %i: opening gives the plaintext', async (_n, vector) => {
    const sut = await openMessage(keyOf(vector), vector.sealed);

    expect(sut).toBe(vector.plaintext);
  });

  it('matches AES-256-GCM under the raw key, with the header as additional data', async () => {
    for (const vector of SEALED_MESSAGE_TEST_VECTORS) {
      const header = vector.sealed.slice(0, vector.sealed.lastIndexOf('$') + 1);
      const key = await globalThis.crypto.subtle.importKey('raw', bytesOfHex(vector.keyHex), 'AES-GCM', false, ['encrypt']);
      const ciphertext = await globalThis.crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: bytesOfHex(vector.nonceHex), additionalData: new TextEncoder().encode(header), tagLength: 128 },
        key,
        new TextEncoder().encode(vector.plaintext),
      );

      expect(header + encodeBase64Url(new Uint8Array(ciphertext))).toBe(vector.sealed);
    }
  });

  it('refuses vector 3 with its last character\'s unused bits set, as docs/guide/encryption.md says', () => {
    const vector = SEALED_MESSAGE_TEST_VECTORS[2]!;
    const lenient = `${vector.sealed.slice(0, -1)}t`;

    expect(vector.sealed.at(-1)).toBe('s');
    expect(() => parseSealedMessage(lenient)).toThrow(SealedMessageError);
    expect(() => parseSealedMessage(lenient)).toThrow('its ciphertext ends in "t"');
  });
});
