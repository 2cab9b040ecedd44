import { sleep } from '../../delivery/backoff.js';
import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { ReceivedSms, ReplySink } from '../phone-driver.js';
import type { CommandRunner } from './command-runner.js';
import { ReplyCursorFile } from './reply-cursor-file.js';
import { readSmsList, type SmsListAnswer } from './sms-list-reader.js';
import { parseReceived, type ListedSms } from './termux-answers.js';

export interface InboxWatchOptions {
  run: CommandRunner;
  commandTimeoutMs: number;
  pollIntervalMs: number;
  stateFile: string;
  log: WorkerLog;
}

const PAGE = 50;
/** Pages read back in one poll when many replies arrived at once; older ones wait for the next poll. */
const MAX_PAGES = 20;
/** Replies per hand-over, oldest first; the rest follow on the next poll. */
const BATCH = 100;

/**
 * Polls `termux-sms-list -t inbox` and hands messages newer than the cursor (the highest `_id`
 * smsq stored, kept in the state file) to the sink, oldest first.
 */
export class InboxWatch {
  private readonly cursorFile: ReplyCursorFile;

  constructor(private readonly options: InboxWatchOptions) {
    this.cursorFile = new ReplyCursorFile(options.stateFile);
  }

  async run(sink: ReplySink, signal: AbortSignal): Promise<void> {
    const { log, pollIntervalMs } = this.options;
    let cursor = this.readCursor();
    let failing: string | undefined;
    log.info('termux reply watch started', { after_id: cursor });
    while (!signal.aborted) {
      const inbox = await this.readNewest(cursor, signal);
      if (!inbox.ok) {
        if (inbox.problem !== failing && !signal.aborted) log.warn('termux inbox unreadable', { problem: inbox.problem });
        failing = inbox.problem;
      } else {
        if (failing !== undefined) log.info('termux inbox readable again');
        failing = undefined;
        cursor = await this.handOver(inbox.messages, cursor, sink);
      }
      await sleep(pollIntervalMs, signal);
    }
    log.info('termux reply watch stopped', { after_id: cursor });
  }

  private async handOver(messages: ListedSms[], cursor: number | undefined, sink: ReplySink): Promise<number | undefined> {
    const { log } = this.options;
    const newest = Math.max(0, ...messages.map((message) => message.id));
    if (cursor === undefined) {
      // First run without a state file: start after the newest message now, so the phone's whole history is not uploaded as replies.
      this.saveCursor(newest);
      log.info('termux reply watch begins after the newest inbox message', { after_id: newest });
      return newest;
    }
    if (messages.length > 0 && newest < cursor) {
      // The newest messages were deleted, or the SMS database is new: ids below the cursor would be skipped for ever.
      log.warn('termux inbox ids went back: resuming after the newest message', { cursor, newest_id: newest });
      this.saveCursor(newest);
      return newest;
    }
    const fresh = messages.filter((message) => message.id > cursor).sort((a, b) => a.id - b.id).slice(0, BATCH);
    if (fresh.length === 0) return cursor;
    try {
      await sink(fresh.map(toReceivedSms));
    } catch (error) {
      log.warn('termux replies not stored: offered again on the next poll', { count: fresh.length, reason: reasonOf(error) });
      return cursor;
    }
    const handed = fresh[fresh.length - 1]!.id;
    this.saveCursor(handed);
    log.info('termux replies handed over', { count: fresh.length, last_id: handed });
    return handed;
  }

  /** The newest inbox messages, reading further pages back until the cursor is reached. */
  private async readNewest(cursor: number | undefined, signal: AbortSignal): Promise<SmsListAnswer> {
    const { run, commandTimeoutMs } = this.options;
    const messages: ListedSms[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await readSmsList(run, { type: 'inbox', limit: PAGE, offset: page * PAGE }, commandTimeoutMs, signal);
      // A page missing in between would let the cursor pass replies never read.
      if (!answer.ok) return answer;
      // Older Termux:API versions list every type for `-t inbox`.
      messages.push(...answer.messages.filter((message) => message.type === 'inbox'));
      const reachedCursor = cursor === undefined || answer.messages.some((message) => message.id <= cursor);
      if (answer.messages.length < PAGE || reachedCursor) return { ok: true, messages };
    }
    this.options.log.warn('termux inbox has more new messages than one poll reads: the oldest are skipped', { read: messages.length });
    return { ok: true, messages };
  }

  private readCursor(): number | undefined {
    try {
      return this.cursorFile.read();
    } catch (error) {
      this.options.log.error('termux reply state unreadable: starting after the newest inbox message', { file: this.options.stateFile, reason: reasonOf(error) });
      return undefined;
    }
  }

  private saveCursor(lastInboxId: number): void {
    try {
      this.cursorFile.write(lastInboxId);
    } catch (error) {
      // The cursor lives on in memory; after a restart smsq's externalId check drops what is offered twice.
      this.options.log.error('termux reply state not saved', { file: this.options.stateFile, reason: reasonOf(error) });
    }
  }
}

function toReceivedSms(message: ListedSms): ReceivedSms {
  return {
    from: message.address,
    message: message.body,
    receivedAt: (parseReceived(message.received) ?? new Date()).toISOString(),
    externalId: `termux:${message.id}`,
  };
}
