import { ownKeyword, type OwnKeywords } from '@smsq/contracts/keywords';
import { sleep } from '../delivery/backoff.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { SmsqClient } from '../smsq/smsq-client.js';

/** How often the client's own words are read again: a change in the dashboard reaches sealed replies within this. */
export const REPLY_KEYWORDS_REFRESH_MS = 5 * 60_000;

/**
 * The client's own reply keywords (`GET /smsapi/reply-keywords`), for marking sealed replies whose
 * text smsq cannot read. Read at start and every `refreshMs`; while smsq cannot answer, the words
 * last read stay, and the trouble is logged once until an answer comes. Before any answer there are
 * no words to mark by: `current` rejects, so replies wait (the driver offers them again) rather than
 * go out sealed with an own opt-out word unmarked, which smsq could never read again.
 */
export class ReplyKeywords {
  private own: OwnKeywords | undefined;
  private firstRead: Promise<void> | undefined;
  private failing = false;

  constructor(
    private readonly smsq: Pick<SmsqClient, 'getReplyKeywords'>,
    private readonly log: WorkerLog,
    private readonly refreshMs = REPLY_KEYWORDS_REFRESH_MS,
  ) {}

  /** The own words to compare a reply with; rejects while smsq has never answered them (asking again each time). */
  async current(): Promise<OwnKeywords> {
    await (this.firstRead ??= this.read());
    if (!this.own) await this.read();
    if (!this.own) throw new Error("the client's own reply keywords are not known yet; the replies wait until smsq answers");
    return this.own;
  }

  /** Reads the words now and again every `refreshMs` until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    await (this.firstRead ??= this.read());
    for (;;) {
      await sleep(this.refreshMs, signal);
      if (signal.aborted) return;
      await this.read();
    }
  }

  private async read(): Promise<void> {
    const answer = await this.smsq.getReplyKeywords();
    if (answer.kind === 'words') {
      // Compared as replies are (keywordIntent): in keyword form, whatever form smsq keeps them in.
      const keywordsOf = (words: string[]) => words.flatMap((word) => ownKeyword(word) ?? []);
      this.own = { optOutWords: keywordsOf(answer.optOutWords), optInWords: keywordsOf(answer.optInWords) };
      if (this.failing) this.log.info('reply keywords read', { opt_out_words: this.own.optOutWords.length, opt_in_words: this.own.optInWords.length });
      this.failing = false;
      return;
    }
    if (answer.kind === 'refused' && answer.status === 404) {
      // An smsq that predates reply keywords has no own words to tell.
      this.own ??= { optOutWords: [], optInWords: [] };
      return;
    }
    if (this.failing) return;
    this.failing = true;
    const reason = answer.kind === 'refused' ? `smsq answered ${answer.status}: ${answer.reason}` : `smsq unreachable: ${answer.reason}`;
    this.log.warn('reply keywords unavailable', { reason, note: 'sealed replies are marked by the own words last read, or wait for the first answer' });
  }
}
