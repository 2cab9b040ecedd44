import type { ReceivedSms, ReplySink } from '../drivers/phone-driver.js';
import type { WorkerLog } from '../logging/worker-log.js';
import type { SmsqClient } from '../smsq/smsq-client.js';

/**
 * Hands the phone's replies to `POST /smsapi/inbound`. When smsq cannot take them now (unreachable,
 * busy, the token refused) the sink rejects and the driver offers them again later; smsq stores
 * each `external_id` once, so offering twice is harmless. A batch smsq refuses as malformed would
 * be refused for ever, so it is logged and let go rather than blocking every later reply.
 */
export class ReplyForwarder {
  constructor(
    private readonly smsq: Pick<SmsqClient, 'postInbound'>,
    private readonly log: WorkerLog,
  ) {}

  readonly sink: ReplySink = async (replies: ReceivedSms[]) => {
    if (replies.length === 0) return;
    const answer = await this.smsq.postInbound(replies);
    if (answer.kind === 'accepted') {
      this.log.info('replies synced', { count: replies.length });
      return;
    }
    const reason = answer.kind === 'refused' ? `smsq answered ${answer.status}: ${answer.reason}` : `smsq unreachable: ${answer.reason}`;
    if (answer.kind === 'refused' && answer.status === 400) {
      this.log.error('replies refused', { count: replies.length, reason });
      return;
    }
    this.log.warn('replies not synced yet', { count: replies.length, reason });
    throw new Error(reason);
  };
}
