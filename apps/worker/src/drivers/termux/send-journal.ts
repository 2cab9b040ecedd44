import { arrayOf, isInteger, isNumber, isString, objectParser, objectWith, oneOf, orNull, StateFile } from '../../state/state-file.js';
import type { OutgoingSms, SendOutcome } from '../phone-driver.js';

/** What became of a task's `termux-sms-send`, as far as the worker saw it. */
export type SendCommandState =
  /** Written before the command runs: a journal still saying so after a crash means it may have reached Android. */
  | 'running'
  /** Exited 0 without an error: Android has the text. */
  | 'accepted'
  /** Never ran, or the app refused before sending: nothing reached Android. */
  | 'not-started'
  | 'refused'
  /** Hung or exited with an error after the broadcast may have reached the app. */
  | 'timed-out'
  | 'failed';

/** One task handed, or about to be handed, to `termux-sms-send`. */
export interface SendEntry {
  taskId: number;
  messageKey: string;
  /** Highest `_id` listed just before the send; null when the list could not be read (the time is compared instead). */
  baselineId: number | null;
  /** Epoch ms. */
  startedAt: number;
  command: SendCommandState;
  /** Why the command gave no SMS, for `not-started` and `refused`. */
  error?: string;
  /** The SMS-list message found for it, so no other task takes the same one. */
  claimedId?: number;
  /** The list's final word (sent or failed) once seen. */
  outcome?: SendOutcome;
}

interface StoredJournal {
  version: 1;
  entries: SendEntry[];
}

/** Long past any claim (SMSQ_CLAIM_TIMEOUT_S is at most a day), so smsq no longer hands the task back. */
export const JOURNAL_RETENTION_MS = 48 * 60 * 60_000;
/** Bounds the file, which is rewritten whole on every change; the oldest go first. */
const MAX_ENTRIES = 10_000;
const COMMAND_STATES: readonly SendCommandState[] = ['running', 'accepted', 'not-started', 'refused', 'timed-out', 'failed'];
const isSendEntry = objectWith({ taskId: isInteger, messageKey: isString, baselineId: orNull(isNumber), startedAt: isNumber, command: oneOf(COMMAND_STATES) });
const parseJournal = objectParser<StoredJournal>({ version: oneOf([1]), entries: arrayOf(isSendEntry) });

/**
 * The tasks handed to `termux-sms-send` in the last 48 hours, kept in a JSON file (0600, replaced
 * whole through a rename, state/state-file.ts) that outlives the process: an entry is written
 * before the command runs, so a worker started after a crash knows not to send that task again.
 */
export class SendJournal {
  private entries: Map<number, SendEntry> | undefined;
  private readonly file: StateFile<StoredJournal>;

  constructor(path: string) {
    this.file = new StateFile(path, parseJournal, 'a termux send journal');
  }

  /** The entry for this SMS; one for the same task id with another message key is from an earlier smsq database and is dropped. Throws when the file is unreadable. */
  find(sms: Pick<OutgoingSms, 'taskId' | 'messageKey'>, now = Date.now()): SendEntry | undefined {
    const entry = this.load(now).get(sms.taskId);
    return entry?.messageKey === sms.messageKey ? entry : undefined;
  }

  /** Message ids other tasks already took. */
  claimedIds(except: SendEntry): Set<number> {
    const ids = new Set<number>();
    for (const entry of this.load().values()) if (entry !== except && entry.claimedId !== undefined) ids.add(entry.claimedId);
    return ids;
  }

  /** Adds or replaces the entry, and writes the file; throws when it cannot be written. */
  save(entry: SendEntry, now = Date.now()): void {
    const entries = this.load(now);
    entries.delete(entry.taskId);
    entries.set(entry.taskId, entry);
    this.prune(entries, now);
    this.file.write({ version: 1, entries: [...entries.values()] });
  }

  private load(now = Date.now()): Map<number, SendEntry> {
    if (this.entries === undefined) {
      const stored = this.file.read();
      this.entries = new Map((stored?.entries ?? []).sort((a, b) => a.startedAt - b.startedAt).map((entry) => [entry.taskId, entry]));
    }
    this.prune(this.entries, now);
    return this.entries;
  }

  private prune(entries: Map<number, SendEntry>, now: number): void {
    for (const [taskId, entry] of entries) if (entry.startedAt < now - JOURNAL_RETENTION_MS) entries.delete(taskId);
    for (const taskId of entries.keys()) {
      if (entries.size <= MAX_ENTRIES) break;
      entries.delete(taskId);
    }
  }
}
