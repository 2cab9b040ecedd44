import { encodeBase64Url } from './base64url.js';
import type { MessageKey } from './message-key.js';
import { NONCE_BYTES, TAG_BYTES, parseSealedMessage, sealedMessageHeader } from './sealed-message.js';
import { SealedMessageError } from './sealed-message-error.js';

export interface SealOptions {
  /**
   * For producing test vectors only. A nonce used twice with one key reveals both texts' XOR and
   * lets anyone forge messages under that key; without this option every message gets a fresh
   * random nonce.
   */
  nonce?: Uint8Array;
}

const utf8 = new TextEncoder();
// fatal: text that is not UTF-8 is refused, not patched; ignoreBOM: a leading U+FEFF is part of the text.
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Refuses what an SMS cannot be or what UTF-8 cannot carry exactly, before any key is derived. */
export function assertSealablePlaintext(plaintext: string): void {
  if (plaintext.length === 0) throw new RangeError('There is no text to encrypt: an SMS cannot be empty.');
  // TextEncoder would turn a lone surrogate into U+FFFD, so the recipient would read other text.
  if (!plaintext.isWellFormed()) throw new RangeError('The text contains a lone UTF-16 surrogate, which is not text and cannot be encrypted.');
}

/** Encrypts `plaintext` (as UTF-8) to `$smsq$1$<keyId>$<nonce>$<ciphertext and tag>`, under a fresh random nonce. */
export async function sealMessage(key: MessageKey, plaintext: string, options: SealOptions = {}): Promise<string> {
  assertSealablePlaintext(plaintext);
  const nonce = options.nonce ? Uint8Array.from(options.nonce) : globalThis.crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  if (nonce.length !== NONCE_BYTES) throw new RangeError(`A nonce is ${NONCE_BYTES} bytes, not ${nonce.length}.`);
  const header = sealedMessageHeader(key.keyId, nonce);
  const ciphertext = await globalThis.crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: utf8.encode(header), tagLength: TAG_BYTES * 8 },
    key.cryptoKey,
    utf8.encode(plaintext),
  );
  return header + encodeBase64Url(new Uint8Array(ciphertext));
}

/**
 * The text of a sealed message. Throws SealedMessageError: `not_sealed`, `unsupported_version` or
 * `malformed` as `parseSealedMessage` does; `wrong_key` when the message names another key;
 * `cannot_decrypt` when it does not authenticate (another passphrase under the same key id, or an
 * altered message).
 */
export async function openMessage(key: MessageKey, sealed: string): Promise<string> {
  const message = parseSealedMessage(sealed);
  if (message.keyId !== key.keyId) {
    throw new SealedMessageError('wrong_key', `The message was encrypted with another key (key id ${message.keyId}) than this one (key id ${key.keyId}).`);
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await globalThis.crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: message.nonce, additionalData: utf8.encode(message.header), tagLength: TAG_BYTES * 8 },
      key.cryptoKey,
      message.ciphertext,
    );
  } catch (error) {
    // WebCrypto's one answer for a tag that does not verify; anything else is a fault, not the message's.
    if (error instanceof Error && error.name === 'OperationError') {
      throw new SealedMessageError('cannot_decrypt', 'The message could not be decrypted: the passphrase is wrong, or the message was altered.');
    }
    throw error;
  }
  try {
    return utf8Strict.decode(plaintext);
  } catch {
    throw new SealedMessageError('cannot_decrypt', 'The message decrypted, but what it holds is not UTF-8 text.');
  }
}
