import { SealedMessageError, type PassphraseKeyring } from '@smsq/message-crypto';
import { reasonOf } from '../http/http-answers.js';
import type { PendingTask } from '../smsq/pending-task.js';
import { countSegments, MESSAGE_MAX_CODE_POINTS } from '@smsq/contracts/segments';

/**
 * What the phone is to send for a task: its text and the SMS parts it costs; or why it cannot be
 * sent, with `cannot_decrypt` when the message could not be opened.
 */
export type TaskText = { kind: 'text'; message: string; parts: number } | { kind: 'unsendable'; error: string; reason?: 'cannot_decrypt' };

const NO_PASSPHRASE = 'cannot decrypt: no passphrase is configured on this worker (WORKER_PASSPHRASE, WORKER_PASSPHRASE_FILE or pair --passphrase)';
const WRONG_PASSPHRASE = 'cannot decrypt: the passphrase is wrong or the message was altered';

/**
 * Opens encrypted tasks just before they go to the phone, with one keyring for the whole process,
 * so each key id's key is derived once (600,000 PBKDF2 iterations) and every later message of that
 * key opens in well under a millisecond. A plain task passes through untouched.
 */
export class MessageOpener {
  constructor(private readonly keyring: Pick<PassphraseKeyring, 'open'> | undefined) {}

  async textOf(task: Pick<PendingTask, 'message' | 'parts' | 'encrypted'>): Promise<TaskText> {
    if (!task.encrypted) return { kind: 'text', message: task.message, parts: task.parts };
    if (!this.keyring) return { kind: 'unsendable', error: NO_PASSPHRASE, reason: 'cannot_decrypt' };
    let message: string;
    try {
      message = await this.keyring.open(task.message);
    } catch (error) {
      return { kind: 'unsendable', error: whyUnopened(error), reason: 'cannot_decrypt' };
    }
    // smsq could not read it: the worker holds it to create-task's rules for a message instead.
    if (message.trim() === '') return { kind: 'unsendable', error: 'the decrypted message is empty' };
    const length = [...message].length;
    if (length > MESSAGE_MAX_CODE_POINTS) return { kind: 'unsendable', error: `the decrypted message is ${length} characters; the most is ${MESSAGE_MAX_CODE_POINTS}` };
    // At most 1,600 characters cost at most MAX_REPORTED_PARTS parts, the most a report may say.
    return { kind: 'text', message, parts: countSegments(message) };
  }
}

/** Why a sealed message did not open, in words for the client; never its text or the passphrase. */
function whyUnopened(error: unknown): string {
  if (!(error instanceof SealedMessageError)) return `cannot decrypt: ${reasonOf(error)}`;
  switch (error.problem) {
    case 'cannot_decrypt':
    case 'wrong_key':
      return WRONG_PASSPHRASE;
    case 'not_sealed':
      return 'cannot decrypt: the task is marked encrypted but its message is not an encrypted (sealed) message';
    case 'malformed':
    case 'unsupported_version':
      return `cannot decrypt: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1).replace(/\.$/, '')}`;
  }
}
