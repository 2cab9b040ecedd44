import { reasonOf } from '../../http/http-answers.js';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { ReceivedSms, ReplySink } from '../phone-driver.js';
import { replyFromInbox } from './received-sms.js';
import type { ReplyCursor } from './reply-cursor.js';
import type { InboxItem, SmsGateApi } from './smsgate-api.js';
import { statusOf } from './smsgate-http-client.js';

export interface ReplyWatcherOptions {
  inboxPollIntervalMs: number;
  /**
   * How far back each pull looks. The inbox dates a reply by the carrier's timestamp
   * (MessagesReceiver: `timestampMillis`), which can be well before the phone got it.
   */
  inboxLookbackMs: number;
  log: WorkerLog;
}

/** The app's largest page (InboxRoutes.kt: `limit` 1–500). */
const INBOX_PAGE = 500;
const INBOX_MAX_ITEMS = 5_000;
/** An app without `GET /inbox` may be updated while the worker runs: ask again after this long. */
const INBOX_RECHECK_MS = 3_600_000;
/** Seen replies are kept this long beyond the lookback, so a late webhook retry is still recognised. */
const SEEN_EXTRA_MS = 86_400_000;

/**
 * Hands the phone's replies to smsq: those its `sms:received` webhooks bring (kept in the state
 * file until smsq takes them) and, for apps with `GET /inbox` (v1.59+), those a periodic pull finds
 * that were not handed over yet. A sink that rejects leaves them for the next round.
 */
export class ReplyWatcher {
  private roused = false;
  private rouse: (() => void) | undefined;
  private inboxMissingAt: number | undefined;
  private inboxProblem: string | undefined;

  constructor(
    private readonly cursor: ReplyCursor,
    private readonly inboxApi: SmsGateApi | undefined,
    private readonly options: ReplyWatcherOptions,
  ) {}

  /** A reply from a webhook: kept, and handed over without waiting for the next round. */
  offer(reply: ReceivedSms): void {
    if (!this.cursor.keep(reply)) return;
    this.roused = true;
    this.rouse?.();
  }

  /** Rounds until `signal` aborts; `beforeRound` (webhook registration) runs at the start of each. */
  async run(sink: ReplySink, signal: AbortSignal, beforeRound?: () => Promise<void>): Promise<void> {
    while (!signal.aborted) {
      this.roused = false;
      await beforeRound?.();
      await this.handOver(this.cursor.pending, sink);
      if (this.inboxApi !== undefined) await this.pullInbox(this.inboxApi, sink, signal);
      await this.nap(signal);
    }
  }

  private async pullInbox(api: SmsGateApi, sink: ReplySink, signal: AbortSignal): Promise<void> {
    if (this.inboxMissingAt !== undefined && Date.now() - this.inboxMissingAt < INBOX_RECHECK_MS) return;
    const from = new Date(Math.max(this.cursor.inboxFrom, Date.now() - this.options.inboxLookbackMs));
    let items: InboxItem[];
    try {
      items = await readInbox(api, from, signal);
    } catch (error) {
      if (signal.aborted) return;
      if (statusOf(error) === 404) {
        if (this.inboxMissingAt === undefined) this.options.log.info('smsgate app has no GET /inbox (before v1.59): replies come only from sms:received webhooks', { gateway: api.baseUrl });
        this.inboxMissingAt = Date.now();
        return;
      }
      const problem = statusOf(error) === 401 ? 'the user or password was refused' : reasonOf(error);
      if (problem !== this.inboxProblem) this.options.log.warn('smsgate inbox not read', { gateway: api.baseUrl, reason: problem });
      this.inboxProblem = problem;
      return;
    }
    if (this.inboxProblem !== undefined) this.options.log.info('smsgate inbox read again', { gateway: api.baseUrl });
    this.inboxProblem = undefined;
    this.inboxMissingAt = undefined;
    const fresh = new Map<string, ReceivedSms>();
    for (const item of items) {
      const reply = replyFromInbox(item);
      if (reply !== undefined && !this.cursor.knows(reply.externalId)) fresh.set(reply.externalId, reply);
    }
    await this.handOver([...fresh.values()].sort((a, b) => a.receivedAt.localeCompare(b.receivedAt)), sink);
  }

  private async handOver(replies: ReceivedSms[], sink: ReplySink): Promise<void> {
    if (replies.length === 0) return;
    try {
      await sink(replies);
    } catch {
      // The sink said why; these are offered again next round.
      return;
    }
    this.cursor.handedOver(replies, Date.now() - this.options.inboxLookbackMs - SEEN_EXTRA_MS);
  }

  /** Waits one poll interval, less when a webhook brings a reply or `signal` aborts. */
  private nap(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (this.roused || signal.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.rouse = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.inboxPollIntervalMs);
      signal.addEventListener('abort', done, { once: true });
      this.rouse = done;
    });
  }
}

/** Every SMS in the inbox since `from`, page by page (newest first, so a reply arriving meanwhile only repeats one). */
async function readInbox(api: SmsGateApi, from: Date, signal: AbortSignal): Promise<InboxItem[]> {
  const items: InboxItem[] = [];
  for (;;) {
    const page = await api.inbox({ from, limit: INBOX_PAGE, offset: items.length }, signal);
    items.push(...page);
    if (page.length < INBOX_PAGE || items.length >= INBOX_MAX_ITEMS) return items;
  }
}
