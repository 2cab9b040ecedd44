import { openMessage, sealMessage, assertSealablePlaintext } from './message-cipher.js';
import { MessageKey, assertUsablePassphrase } from './message-key.js';
import { parseSealedMessage } from './sealed-message.js';

/** Keys kept for opening; a receiver normally sees a handful of key ids, one per sender session. */
const MAX_CACHED_KEYS = 32;

/**
 * Seals and opens messages with one passphrase, deriving each key once: the key it seals with is
 * made on first use (one new salt per keyring), and the key of every key id it opens is derived on
 * the first message that names it, concurrent opens sharing that one derivation.
 */
export class PassphraseKeyring {
  // An ES private field, so logging or inspecting a keyring never shows the passphrase.
  readonly #passphrase: string;
  readonly #keysById = new Map<string, Promise<MessageKey>>();
  #sealingKey: Promise<MessageKey> | undefined;

  constructor(passphrase: string) {
    assertUsablePassphrase(passphrase);
    this.#passphrase = passphrase;
  }

  async seal(plaintext: string): Promise<string> {
    assertSealablePlaintext(plaintext);
    return sealMessage(await this.sealingKey(), plaintext);
  }

  /** The text of a sealed message; throws SealedMessageError as `openMessage` does (never `wrong_key`). */
  async open(sealed: string): Promise<string> {
    // Parsed first, so text that is not a sealed message costs no derivation.
    const { keyId } = parseSealedMessage(sealed);
    return openMessage(await this.keyFor(keyId), sealed);
  }

  /** The key this keyring seals with, made once. */
  sealingKey(): Promise<MessageKey> {
    if (!this.#sealingKey) {
      const making = MessageKey.fromPassphrase(this.#passphrase);
      this.#sealingKey = making;
      making.then(
        (key) => {
          if (!this.#keysById.has(key.keyId)) this.#remember(key.keyId, making);
        },
        () => {
          if (this.#sealingKey === making) this.#sealingKey = undefined;
        },
      );
    }
    return this.#sealingKey;
  }

  /** The key `keyId` names under this keyring's passphrase, derived once. */
  keyFor(keyId: string): Promise<MessageKey> {
    const known = this.#keysById.get(keyId);
    if (known) {
      // Used again: last to be dropped.
      this.#keysById.delete(keyId);
      this.#keysById.set(keyId, known);
      return known;
    }
    const deriving = MessageKey.derive(this.#passphrase, keyId);
    this.#remember(keyId, deriving);
    deriving.catch(() => {
      if (this.#keysById.get(keyId) === deriving) this.#keysById.delete(keyId);
    });
    return deriving;
  }

  #remember(keyId: string, key: Promise<MessageKey>): void {
    this.#keysById.set(keyId, key);
    while (this.#keysById.size > MAX_CACHED_KEYS) {
      this.#keysById.delete(this.#keysById.keys().next().value!);
    }
  }
}
