export { openMessage, sealMessage, type SealOptions } from './message-cipher.js';
export { MessageKey, PBKDF2_ITERATIONS, type AesGcmKey } from './message-key.js';
export { PassphraseKeyring } from './passphrase-keyring.js';
export {
  isSealedMessage,
  maxSealedLength,
  parseSealedMessage,
  SEALED_MESSAGE_PREFIX,
  SEALED_MESSAGE_VERSION,
  TAG_BYTES,
  type SealedMessage,
} from './sealed-message.js';
export { SealedMessageError, type SealedMessageProblem } from './sealed-message-error.js';
export { SEALED_MESSAGE_TEST_VECTORS, type SealedMessageTestVector } from './test-vectors.js';
