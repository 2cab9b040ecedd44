import { decodeBase64Url, encodeBase64Url } from './base64url.js';
import { SealedMessageError } from './sealed-message-error.js';

/** What every sealed message starts with; text that does not is an ordinary, readable message. */
export const SEALED_MESSAGE_PREFIX = '$smsq$';
export const SEALED_MESSAGE_VERSION = 1;
export const SALT_BYTES = 16;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

const ALPHABET_IN_WORDS = 'A-Z, a-z, 0-9, "-" and "_"';
const KEY_ID_LENGTH = encodedLength(SALT_BYTES);
const NONCE_LENGTH = encodedLength(NONCE_BYTES);
/** `$smsq$1$<keyId>$<nonce>$`. */
const HEADER_LENGTH = SEALED_MESSAGE_PREFIX.length + String(SEALED_MESSAGE_VERSION).length + 1 + KEY_ID_LENGTH + 1 + NONCE_LENGTH + 1;
const MAX_UTF8_BYTES_PER_CODE_POINT = 4;

export interface SealedMessage {
  version: typeof SEALED_MESSAGE_VERSION;
  /** base64url of the 16-byte PBKDF2 salt: which key sealed the message. */
  keyId: string;
  /** The 12-byte AES-GCM nonce. */
  nonce: Uint8Array<ArrayBuffer>;
  /** The AES-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: Uint8Array<ArrayBuffer>;
  /** `$smsq$1$<keyId>$<nonce>$`: the text before the ciphertext, authenticated as additional data. */
  header: string;
}

/**
 * Reads `$smsq$1$<keyId>$<nonce>$<ciphertext>` strictly: every field base64url exactly as
 * `encodeBase64Url` writes it, of its exact length. Decrypts nothing.
 */
export function parseSealedMessage(text: string): SealedMessage {
  if (!text.startsWith(SEALED_MESSAGE_PREFIX)) {
    throw new SealedMessageError('not_sealed', `The message is not encrypted: an encrypted message starts with ${SEALED_MESSAGE_PREFIX}.`);
  }
  const fields = text.slice(SEALED_MESSAGE_PREFIX.length).split('$');
  const version = fields[0];
  if (version === '') throw malformed(`it has no version after ${SEALED_MESSAGE_PREFIX}`);
  if (version !== String(SEALED_MESSAGE_VERSION)) {
    const which = /^[0-9]{1,6}$/.test(version) ? `version ${version} of the encryption format, which` : 'an encryption format version';
    throw new SealedMessageError(
      'unsupported_version',
      `The encrypted message uses ${which} this version of smsq cannot read; it reads version ${SEALED_MESSAGE_VERSION}.`,
    );
  }
  if (fields.length !== 4) {
    throw malformed(`it must be ${SEALED_MESSAGE_PREFIX}${SEALED_MESSAGE_VERSION}$ followed by the key id, the nonce and the ciphertext, separated by "$"`);
  }
  const [, keyId, nonceText, ciphertextText] = fields;
  decodeField(keyId, 'key id', SALT_BYTES);
  const nonce = decodeField(nonceText, 'nonce', NONCE_BYTES);
  const ciphertext = decodeField(ciphertextText, 'ciphertext');
  if (ciphertext.length < TAG_BYTES) {
    throw malformed(`its ciphertext is ${ciphertextText.length} characters long; even an empty text encrypts to at least ${encodedLength(TAG_BYTES)}`);
  }
  return { version: SEALED_MESSAGE_VERSION, keyId, nonce, ciphertext, header: text.slice(0, text.length - ciphertextText.length) };
}

/** Whether `text` is a well-formed sealed message of a version this code reads. */
export function isSealedMessage(text: string): boolean {
  try {
    parseSealedMessage(text);
    return true;
  } catch (error) {
    if (error instanceof SealedMessageError) return false;
    throw error;
  }
}

/** The 16 salt bytes a key id names; a malformed key id is a SealedMessageError `malformed`. */
export function saltOfKeyId(keyId: string): Uint8Array<ArrayBuffer> {
  return decodeField(keyId, 'key id', SALT_BYTES);
}

/** The text before the ciphertext, which is also the additional authenticated data. */
export function sealedMessageHeader(keyId: string, nonce: Uint8Array): string {
  return `${SEALED_MESSAGE_PREFIX}${SEALED_MESSAGE_VERSION}$${keyId}$${encodeBase64Url(nonce)}$`;
}

/**
 * The longest sealed text a plaintext of at most `plaintextCodePoints` code points can become
 * (each is at most 4 UTF-8 bytes). A bound on UTF-16 code units works too: a code unit is never
 * more than 3 bytes, a surrogate pair 4.
 */
export function maxSealedLength(plaintextCodePoints: number): number {
  if (!Number.isSafeInteger(plaintextCodePoints) || plaintextCodePoints < 0) {
    throw new RangeError(`A plaintext length must be a whole number of at least 0, not ${plaintextCodePoints}.`);
  }
  return HEADER_LENGTH + encodedLength(plaintextCodePoints * MAX_UTF8_BYTES_PER_CODE_POINT + TAG_BYTES);
}

/** How many base64url characters (without padding) `byteCount` bytes become. */
function encodedLength(byteCount: number): number {
  return Math.ceil((byteCount * 4) / 3);
}

function decodeField(text: string, field: string, exactBytes?: number): Uint8Array<ArrayBuffer> {
  const decoded = decodeBase64Url(text);
  if (!decoded.ok && decoded.problem === 'character') {
    throw malformed(`its ${field} contains ${JSON.stringify(decoded.character)}, which is not one of the base64url characters (${ALPHABET_IN_WORDS})`);
  }
  if (exactBytes !== undefined && text.length !== encodedLength(exactBytes)) {
    throw malformed(`its ${field} is ${text.length} characters long; it must be ${encodedLength(exactBytes)}`);
  }
  if (!decoded.ok && decoded.problem === 'length') {
    throw malformed(`its ${field} is ${text.length} characters long, a length base64url never has`);
  }
  if (!decoded.ok) {
    throw malformed(`its ${field} ends in "${text.slice(-1)}", which base64url never writes there (the character's unused low bits must be zero)`);
  }
  return decoded.bytes;
}

function malformed(reason: string): SealedMessageError {
  return new SealedMessageError('malformed', `The encrypted message is damaged: ${reason}.`);
}
