import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import { arrayOf, isNumber, isString, objectParser, objectWith, oneOf, orNull, recordOf, StateFile } from '../../state/state-file.js';
import type { ReceivedSms } from '../phone-driver.js';

interface StoredReplyCursor {
  version: 1;
  /** Epoch ms of the first run: the inbox before it is history, never handed over. */
  inboxFrom: number;
  /** Replies smsq took: `externalId` → epoch ms received. */
  seen: Record<string, number>;
  /** Replies from webhooks that smsq has not taken yet. */
  pending: ReceivedSms[];
}

/**
 * What the reply watcher must not forget across restarts: where the inbox starts, which replies smsq
 * already took, and which webhook replies still wait for it. One small JSON file, readable by this
 * user only, replaced whole (state/state-file.ts).
 */
export class ReplyCursor {
  private constructor(
    private readonly file: StateFile<StoredReplyCursor>,
    private readonly state: StoredReplyCursor,
  ) {}

  /** The stored cursor; a missing or unreadable file starts from now. */
  static open(path: string, log: WorkerLog, nowMs = Date.now()): ReplyCursor {
    const file = new StateFile(path, parseReplyCursor, 'an smsgate reply cursor');
    let stored: StoredReplyCursor | undefined;
    try {
      stored = file.read();
    } catch (error) {
      log.warn('smsgate reply state unreadable; replies start from now', { file: path, reason: reasonOf(error) });
    }
    if (stored !== undefined) return new ReplyCursor(file, stored);
    const cursor = new ReplyCursor(file, { version: 1, inboxFrom: nowMs, seen: {}, pending: [] });
    cursor.save();
    return cursor;
  }

  get inboxFrom(): number {
    return this.state.inboxFrom;
  }

  get pending(): ReceivedSms[] {
    return [...this.state.pending];
  }

  knows(externalId: string): boolean {
    return externalId in this.state.seen || this.state.pending.some((reply) => reply.externalId === externalId);
  }

  /** Keeps a webhook's reply until smsq takes it; false when it is already known. */
  keep(reply: ReceivedSms): boolean {
    if (this.knows(reply.externalId)) return false;
    this.state.pending.push(reply);
    this.save();
    return true;
  }

  /** smsq took these: remembered as seen (those received before `forgetBefore` are dropped). */
  handedOver(replies: ReceivedSms[], forgetBefore: number): void {
    const taken = new Set(replies.map((reply) => reply.externalId));
    for (const reply of replies) this.state.seen[reply.externalId] = Date.parse(reply.receivedAt);
    this.state.pending = this.state.pending.filter((reply) => !taken.has(reply.externalId));
    for (const [externalId, receivedAt] of Object.entries(this.state.seen)) if (!(receivedAt >= forgetBefore)) delete this.state.seen[externalId];
    this.save();
  }

  private save(): void {
    this.file.write(this.state);
  }
}

const isReply = objectWith({ from: isString, message: isString, receivedAt: isString, externalId: isString });
// `seen` may hold null where a reply's date was unreadable (NaN written as JSON): such an entry is simply forgotten.
const parseReplyCursor = objectParser<StoredReplyCursor>({ version: oneOf([1]), inboxFrom: isNumber, seen: recordOf(orNull(isNumber)), pending: arrayOf(isReply) });
