import type { ReceivedSms, ReplySink } from '../drivers/phone-driver.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { SmsqClient } from '../smsq/smsq-client.js';
import type { InboundReply, ReplySealer } from './reply-sealer.js';

/**
 * Hands the phone's replies to `POST /smsapi/inbound`. When smsq cannot take them now (unreachable,
 * busy, the token refused) the sink rejects and the driver offers them again later; smsq stores
 * each `external_id` once, so offering twice is harmless. A batch smsq refuses as malformed would
 * be refused for ever, so it is logged and let go rather than blocking every later reply. With a
 * `sealer` (WORKER_ENCRYPT_REPLIES), every reply is sealed before it leaves: one that cannot be is
 * offered again later, never sent in the clear.
 */
export class ReplyForwarder {
  constructor(
    private readonly smsq: Pick<SmsqClient, 'postInbound'>,
    private readonly log: WorkerLog,
    private readonly sealer?: Pick<ReplySealer, 'seal'>,
  ) {}

  readonly sink: ReplySink = async (replies: ReceivedSms[]) => {
    // Sealed before they are batched: a sealed reply is longer, and the batches must fit smsq's limits as sent.
    const outgoing = this.sealer ? await this.sealer.seal(replies) : replies;
    for (const batch of syncBatches(outgoing)) await this.sync(batch);
  };

  private async sync(replies: InboundReply[]): Promise<void> {
    const answer = await this.smsq.postInbound(replies);
    if (answer.kind === 'accepted') {
      this.log.info('replies synced', { count: replies.length, encrypted: this.sealer ? true : undefined });
      return;
    }
    const reason = answer.kind === 'refused' ? `smsq answered ${answer.status}: ${answer.reason}` : `smsq unreachable: ${answer.reason}`;
    if (answer.kind === 'refused' && answer.status === 400) {
      this.log.error('replies refused', { count: replies.length, reason });
      return;
    }
    this.log.warn('replies not synced yet', { count: replies.length, reason });
    throw new Error(reason);
  }
}

/** What one `POST /smsapi/inbound` takes (DESIGN §3 limits: 500 messages, a 64 KiB body); a little room is kept for the envelope. */
const MAX_REPLIES_PER_SYNC = 500;
const MAX_SYNC_BYTES = 60 * 1024;

/** Replies in batches smsq accepts whole: a batch it refused for its size would be refused for ever. */
export function syncBatches<Reply extends ReceivedSms>(replies: Reply[]): Reply[][] {
  const batches: Reply[][] = [];
  let batch: Reply[] = [];
  let bytes = 0;
  for (const reply of replies) {
    // The wire form (snake_case keys) is as long as this one, give or take a few bytes, plus a comma.
    const size = Buffer.byteLength(JSON.stringify(reply)) + 8;
    if (batch.length > 0 && (batch.length === MAX_REPLIES_PER_SYNC || bytes + size > MAX_SYNC_BYTES)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(reply);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
