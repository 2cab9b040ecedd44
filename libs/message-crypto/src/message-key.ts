import { encodeBase64Url } from './base64url.js';
import { SALT_BYTES, saltOfKeyId } from './sealed-message.js';

/** OWASP's recommendation for PBKDF2-HMAC-SHA-256 (2023). */
export const PBKDF2_ITERATIONS = 600_000;

/** WebCrypto's key type, named through the global so neither Node's nor the DOM's typings are needed. */
export type AesGcmKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.deriveKey>>;

const utf8 = new TextEncoder();

/**
 * An AES-256-GCM key derived from a passphrase and a 16-byte salt. The salt is public and names the
 * key (`keyId`, its base64url), so a receiver derives once per (passphrase, keyId) and keeps the key:
 * a derivation costs 600,000 iterations of HMAC-SHA-256 on purpose.
 */
export class MessageKey {
  private constructor(
    /** base64url of the salt, 22 characters; every message sealed with this key carries it. */
    readonly keyId: string,
    /** Not extractable: WebCrypto keeps the key's bytes, which never reach JavaScript. */
    readonly cryptoKey: AesGcmKey,
  ) {}

  /** A new key for sealing, under a new random salt. */
  static async fromPassphrase(passphrase: string): Promise<MessageKey> {
    const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
    return new MessageKey(encodeBase64Url(salt), await deriveAesGcmKey(passphrase, salt));
  }

  /** The key a message's `keyId` names, for opening it; a malformed `keyId` is a SealedMessageError `malformed`. */
  static async derive(passphrase: string, keyId: string): Promise<MessageKey> {
    const salt = saltOfKeyId(keyId);
    return new MessageKey(keyId, await deriveAesGcmKey(passphrase, salt));
  }
}

/** Refuses a passphrase that protects nothing or that UTF-8 cannot carry exactly. */
export function assertUsablePassphrase(passphrase: string): void {
  if (passphrase.length === 0) throw new RangeError('The passphrase is empty.');
  // TextEncoder would turn a lone surrogate into U+FFFD, so different passphrases would give one key.
  if (!passphrase.isWellFormed()) throw new RangeError('The passphrase contains a lone UTF-16 surrogate, which is not text.');
}

async function deriveAesGcmKey(passphrase: string, salt: Uint8Array<ArrayBuffer>): Promise<AesGcmKey> {
  assertUsablePassphrase(passphrase);
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', utf8.encode(passphrase), 'PBKDF2', false, ['deriveKey']);
  return subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: PBKDF2_ITERATIONS },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}
