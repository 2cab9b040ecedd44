import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import { readJsonFile, writePrivateJson } from '../../state/private-file.js';
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
 * user only, replaced whole (state/private-file.ts).
 */
export class ReplyCursor {
  private constructor(
    private readonly file: string,
    private readonly state: StoredReplyCursor,
  ) {}

  /** The stored cursor; a missing or unreadable file starts from now. */
  static open(file: string, log: WorkerLog, nowMs = Date.now()): ReplyCursor {
    let stored: unknown;
    try {
      stored = readJsonFile(file);
    } catch (error) {
      log.warn('smsgate reply state unreadable; replies start from now', { file, reason: reasonOf(error) });
    }
    if (isStoredReplyCursor(stored)) return new ReplyCursor(file, stored);
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
    writePrivateJson(this.file, this.state);
  }
}

function isStoredReplyCursor(value: unknown): value is StoredReplyCursor {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    state['version'] === 1 &&
    typeof state['inboxFrom'] === 'number' &&
    typeof state['seen'] === 'object' &&
    state['seen'] !== null &&
    Array.isArray(state['pending'])
  );
}
