import { Injectable } from '@nestjs/common';
import { SmsGateConfig } from '../smsgate-config.js';

/** What `POST /sim/limit` sets and `GET /sim/limit` answers. */
export interface SendLimitView {
  /** The SMS the phone sends from when the limit was set before it refuses; null: no limit. */
  after: number | null;
  /** The SMS it still sends before it refuses; null: no limit. */
  left: number | null;
}

/**
 * Android's limit on the SMS an app sends, as the phone meets it: after `after` SMS (one per number
 * dialled, counted from start or from the last `POST /sim/limit`) every further send fails with
 * `RESULT_ERROR_LIMIT_EXCEEDED`, never reaching the radio, until the limit is lifted. From
 * GATEWAY_SIM_SMSGATE_LIMIT_EXCEEDED_AFTER at start, changed while it runs by `POST /sim/limit`, so
 * an end-to-end test can make one of several stand-ins refuse for volume.
 */
@Injectable()
export class SendLimit {
  private after: number | null;
  private sent = 0;

  constructor(config: SmsGateConfig) {
    this.after = config.limitExceededAfter;
  }

  get view(): SendLimitView {
    return { after: this.after, left: this.after === null ? null : Math.max(0, this.after - this.sent) };
  }

  /** From now on: `after` more SMS, then refusals; null lifts the limit. */
  set(after: number | null): void {
    this.after = after;
    this.sent = 0;
  }

  /** Whether the next SMS is refused for volume. */
  get reached(): boolean {
    return this.after !== null && this.sent >= this.after;
  }

  /** One more SMS went out. */
  counted(sms = 1): void {
    this.sent += sms;
  }
}
