import { keywordIntent, type OwnKeywords } from '@smsq/contracts/keywords';
import type { PassphraseKeyring } from '@smsq/message-crypto';
import type { ReceivedSms } from '../drivers/phone-driver.js';

/** A reply as `POST /smsapi/inbound` takes it: sealed, and marked with the keyword its text is, which smsq cannot read. */
export interface InboundReply extends ReceivedSms {
  encrypted?: true;
  keyword?: 'opt_out' | 'opt_in';
}

/**
 * Seals replies with the client's passphrase before they leave the worker (WORKER_ENCRYPT_REPLIES),
 * marking each whose text is a keyword: the standard words and the client's own (`ReplyKeywords`),
 * so smsq still opts its sender out or in.
 */
export class ReplySealer {
  constructor(
    private readonly keyring: Pick<PassphraseKeyring, 'seal'>,
    private readonly keywords: { current(): Promise<OwnKeywords> },
  ) {}

  async seal(replies: ReceivedSms[]): Promise<InboundReply[]> {
    const own = await this.keywords.current();
    return Promise.all(replies.map((reply) => this.sealOne(reply, own)));
  }

  private async sealOne(reply: ReceivedSms, own: OwnKeywords): Promise<InboundReply> {
    // An empty text hides nothing, and a sealed message cannot be empty.
    if (reply.message === '') return reply;
    // A lone surrogate (from a phone's JSON) is not text the seal takes; the replacement character stands in for it.
    const text = reply.message.toWellFormed();
    const keyword = keywordIntent(text, own);
    return { ...reply, message: await this.keyring.seal(text), encrypted: true, ...(keyword === null ? {} : { keyword }) };
  }
}
