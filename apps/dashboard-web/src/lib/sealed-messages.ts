import type { OutgoingSms } from '@smsq/dashboard-api';
import { SealedMessageError, type PassphraseKeyring } from '@smsq/message-crypto';

/**
 * What opening a sealed message gave: its text, or why not in the words the page shows.
 * `wrong_passphrase` covers an altered message too: the two cannot be told apart, by design.
 */
export type Opened = { ok: true; text: string } | { ok: false; problem: 'wrong_passphrase' | 'damaged' | 'newer_format' };

/** Opened messages a page keeps: far more than a few pages of tasks, replies and threads hold. */
const MAX_KEPT = 5_000;

/**
 * Opens sealed messages with one passphrase (its keyring derives each key once), each message
 * once: a page shown again shows what was opened without asking WebCrypto again. It lives in the
 * page's memory only, with the keyring, and goes with it.
 */
export class MessageOpener {
  readonly #opening = new Map<string, Promise<Opened>>();
  readonly #opened = new Map<string, Opened>();

  constructor(readonly keyring: PassphraseKeyring) {}

  /** Never rejects: a message that does not open is an outcome to show, not an error. */
  open(sealed: string): Promise<Opened> {
    const known = this.#opening.get(sealed);
    if (known) return known;
    const opening = this.keyring.open(sealed).then(
      (text): Opened => ({ ok: true, text }),
      (error: unknown): Opened => ({ ok: false, problem: problemOf(error) }),
    );
    this.#opening.set(sealed, opening);
    void opening.then((opened) => {
      this.#opened.set(sealed, opened);
      // Oldest first out; a message dropped is only opened again if it is shown again.
      while (this.#opening.size > MAX_KEPT) {
        const oldest = this.#opening.keys().next().value!;
        this.#opening.delete(oldest);
        this.#opened.delete(oldest);
      }
    });
    return opening;
  }

  /** The outcome of a message already opened, so that a page shown again does not flash "decrypting". */
  opened(sealed: string): Opened | undefined {
    return this.#opened.get(sealed);
  }
}

function problemOf(error: unknown): Extract<Opened, { ok: false }>['problem'] {
  if (!(error instanceof SealedMessageError)) return 'damaged';
  switch (error.problem) {
    case 'cannot_decrypt':
    case 'wrong_key':
      return 'wrong_passphrase';
    case 'unsupported_version':
      return 'newer_format';
    default:
      return 'damaged';
  }
}

/** What the page says of a message that did not open. */
export function openingProblemText(problem: Extract<Opened, { ok: false }>['problem']): string {
  switch (problem) {
    case 'wrong_passphrase':
      return 'Cannot decrypt with this passphrase';
    case 'newer_format':
      return 'Cannot decrypt: encrypted in a newer format than this dashboard reads';
    case 'damaged':
      return 'Cannot decrypt: the encrypted message is damaged';
  }
}

/** A task's SMS parts as the page shows them: an encrypted message's are not known until its phone sends it. */
export function partsText(segments: number | null): string {
  return segments === null ? 'Not known yet: the message is encrypted, so its phone counts them when it sends it' : String(segments);
}

/**
 * The messages with each text sealed: `message` becomes the sealed message and `encrypted` true.
 * An empty text stays as it is, for create-task to refuse as it refuses any empty SMS: it hides
 * nothing. A template cannot be sealed: smsq would have to read the text to fill it.
 */
export async function sealedMessages(keyring: PassphraseKeyring, messages: readonly OutgoingSms[]): Promise<OutgoingSms[]> {
  return Promise.all(
    messages.map(async (sms): Promise<OutgoingSms> => {
      if (!('message' in sms)) throw new RangeError('A message made from a template cannot be encrypted: smsq would have to read it to fill it in.');
      if (sms.message === '') return sms;
      return { ...sms, message: await keyring.seal(sms.message), encrypted: true };
    }),
  );
}

/**
 * Seals a send's text once: every try of one send (one idempotency key) must carry the same body,
 * and sealing again would give another text (a fresh nonce), which the server would take for
 * another request under the same key. A new key, text or passphrase seals afresh.
 */
export class SealOnce {
  #last: { sendKey: string; keyring: PassphraseKeyring; text: string; sealed: Promise<string> } | undefined;

  seal(keyring: PassphraseKeyring, sendKey: string, text: string): Promise<string> {
    const last = this.#last;
    if (last && last.sendKey === sendKey && last.keyring === keyring && last.text === text) return last.sealed;
    const sealed = keyring.seal(text);
    this.#last = { sendKey, keyring, text, sealed };
    sealed.catch(() => {
      if (this.#last?.sealed === sealed) this.#last = undefined;
    });
    return sealed;
  }
}
