import { reasonOf } from '../../http/http-answers.js';
import type { MessageState } from 'android-sms-gateway';
import type { WorkerLog } from '../../logging/worker-log.js';
import type { OutgoingSms, SendOutcome } from '../phone-driver.js';
import type { MessageNews } from './message-news.js';
import { gatewayBaseUrl, type PostMessageBody, type SmsGateApi } from './smsgate-api.js';
import { phoneSentNothing, refusedForVolume } from './nothing-sent.js';
import { statusOf } from './smsgate-http-client.js';

export interface SmsGateSenderOptions {
  simNumber?: number;
  withDeliveryReport: boolean;
  pollIntervalMs: number;
  ttlMarginMs: number;
  /** Following stops this long before the claim lapses, so the worker can still report what it learned. */
  reportReserveMs: number;
  deliveryReportTimeoutMs: number;
  log: WorkerLog;
}

export const CREDENTIALS_REFUSED = 'SMSGate refused the user or password (SMSGATE_USER / SMSGATE_PASSWORD)';

/** A shorter ttl would leave the phone almost no time to send; a fresh claim gets a full window. */
export const MIN_TTL_S = 10;

/** Delivery reports can take minutes: polls for them back off to this. */
const MAX_DELIVERY_POLL_MS = 30_000;

/** `textMessage: {text}` since v1.39; the top-level `message` before (still accepted, deprecated). */
type MessageShape = 'textMessage' | 'message';

/**
 * Hands one task to the app and follows it (MessagesRoutes.kt). The message id is the task id, so
 * the phone itself refuses a second copy: every hand-over first asks `GET /message/{id}` and only
 * posts when the phone has no such message, whatever an earlier attempt or crashed worker did.
 */
export class SmsGateSender {
  /** The body shape each gateway took, once it took one. */
  private readonly shapes = new Map<string, MessageShape>();

  constructor(
    private readonly apiFor: (baseUrl: string) => SmsGateApi,
    private readonly news: MessageNews,
    private readonly options: SmsGateSenderOptions,
  ) {}

  async handOver(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome> {
    const baseUrl = gatewayBaseUrl(sms.gatewayUrl);
    if (baseUrl === undefined) return failed(sms.gatewayUrl === null ? 'the phone has no gateway URL' : 'the gateway URL is not a usable http(s) URL');
    const api = this.apiFor(baseUrl);
    const id = sms.messageKey;
    const followUntil = sms.claimDeadline - this.options.reportReserveMs;
    let shape = this.shapes.get(baseUrl);
    let triedOldShape = false;
    let problem = 'no answer from the phone';
    while (!signal.aborted && Date.now() < followUntil) {
      let existing: MessageState | undefined;
      try {
        existing = await api.findMessage(id, signal);
      } catch (error) {
        if (statusOf(error) === 401) return failed(CREDENTIALS_REFUSED);
        problem = reasonOf(error);
        await this.pause(id, followUntil, signal);
        continue;
      }
      if (existing !== undefined) return this.follow(api, sms, followUntil, signal, existing);

      const ttlS = Math.floor((sms.claimDeadline - this.options.ttlMarginMs - Date.now()) / 1000);
      // Not `failed`: that would refund a task nobody tried; left unreported, it comes back with a full claim.
      if (ttlS < MIN_TTL_S) return unknown('the claim lapses too soon to hand the SMS to the phone');
      const sendShape = shape ?? 'textMessage';
      try {
        await api.postMessage(this.body(sms, id, ttlS, sendShape), signal);
      } catch (error) {
        const status = statusOf(error);
        if (status === 409) return this.follow(api, sms, followUntil, signal);
        if (status === 401) return failed(CREDENTIALS_REFUSED);
        // Apps before v1.39 read only `message`: without it they answer 500 (a null dereference in
        // MessagesRoutes) or 400. The loop asks GET /message/{id} again before the one retry.
        if ((status === 400 || status === 500) && shape === undefined && !triedOldShape) {
          this.options.log.warn('smsgate post refused; retrying with the pre-v1.39 message field', { task: sms.taskId, gateway: baseUrl, http_status: status });
          shape = 'message';
          triedOldShape = true;
          continue;
        }
        if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) return failed(`SMSGate refused the SMS: ${reasonOf(error)}`);
        // No answer, or a 5xx: the post may still have landed; the next round looks before posting.
        problem = reasonOf(error);
        await this.pause(id, followUntil, signal);
        continue;
      }
      if (this.shapes.get(baseUrl) !== sendShape) {
        this.shapes.set(baseUrl, sendShape);
        if (sendShape === 'message') this.options.log.warn('smsgate app predates v1.39: sending with the deprecated message field', { gateway: baseUrl });
      }
      return this.follow(api, sms, followUntil, signal);
    }
    return unknown(signal.aborted ? 'the worker stopped while handing the SMS to the phone' : `the phone did not take the SMS before the claim lapsed: ${problem}`);
  }

  /** After `sent`: true once the phone has the carrier's delivery report, false on failure or after the give-up time. */
  async followDelivery(sms: OutgoingSms, signal: AbortSignal): Promise<boolean> {
    const baseUrl = gatewayBaseUrl(sms.gatewayUrl);
    if (!this.options.withDeliveryReport || baseUrl === undefined) return false;
    const api = this.apiFor(baseUrl);
    const id = sms.messageKey;
    const giveUpAt = Date.now() + this.options.deliveryReportTimeoutMs;
    let intervalMs = this.options.pollIntervalMs;
    while (!signal.aborted && Date.now() < giveUpAt) {
      try {
        const message = await api.findMessage(id, signal);
        const state = message === undefined ? undefined : recipientOf(message, sms.recipient).state;
        if (state === 'Delivered') return true;
        if (state === 'Failed' || state === 'Cancelled') return false;
      } catch {
        // Unreachable for a moment: the report is still on the phone.
      }
      await this.news.wait(id, Math.min(intervalMs, giveUpAt - Date.now()), signal);
      intervalMs = Math.min(MAX_DELIVERY_POLL_MS, Math.round(intervalMs * 1.5));
    }
    return false;
  }

  /**
   * Polls `GET /message/{id}` (woken early by webhooks) until the phone settles the message. A
   * message still Pending or Processed when following must stop is `unknown`, never `failed`:
   * the phone may yet send it. Its ttl ends `ttlMarginMs` before the claim, so a phone that is
   * alive has marked it Failed ("TTL expired") by then.
   */
  private async follow(api: SmsGateApi, sms: OutgoingSms, followUntil: number, signal: AbortSignal, known?: MessageState): Promise<SendOutcome> {
    const id = sms.messageKey;
    let message = known;
    let last = 'not seen yet';
    for (;;) {
      if (message === undefined) {
        try {
          message = await api.findMessage(id, signal);
          if (message === undefined) last = 'the phone does not know the message';
        } catch (error) {
          // A request cut short by the stop says nothing about the phone.
          if (!signal.aborted) last = reasonOf(error);
        }
      }
      if (message !== undefined) {
        if (!isThisSms(message, sms)) return failed(`the phone already has another message with id ${id} (is a second smsq or sender using these ids?)`);
        const settled = settledOutcome(message, sms.recipient);
        if (settled !== undefined) return settled;
        last = `still ${recipientOf(message, sms.recipient).state}`;
      }
      message = undefined;
      const leftMs = followUntil - Date.now();
      if (signal.aborted || leftMs <= 0) break;
      await this.news.wait(id, Math.min(this.options.pollIntervalMs, leftMs), signal);
    }
    return unknown(signal.aborted ? `the worker stopped while the phone had the SMS (${last})` : `the phone had not settled the SMS when the claim was about to lapse (${last})`);
  }

  private body(sms: OutgoingSms, id: string, ttlS: number, shape: MessageShape): PostMessageBody {
    const common = {
      id,
      phoneNumbers: [sms.recipient],
      ...simNumberOf(sms.sim ?? this.options.simNumber),
      withDeliveryReport: this.options.withDeliveryReport,
      ttl: ttlS,
    };
    return shape === 'textMessage' ? { ...common, textMessage: { text: sms.message } } : { ...common, message: sms.message };
  }

  private pause(id: string, until: number, signal: AbortSignal): Promise<void> {
    return this.news.wait(id, Math.min(this.options.pollIntervalMs, until - Date.now()), signal);
  }
}

/** Sent, Delivered, Failed or Cancelled as an outcome; undefined while Pending, Processed or Cancelling. */
function settledOutcome(message: MessageState, recipient: string): SendOutcome | undefined {
  const { state, error } = recipientOf(message, recipient);
  switch (state) {
    case 'Sent':
      return { status: 'sent', delivered: false, messageId: message.id };
    case 'Delivered':
      return { status: 'sent', delivered: true, messageId: message.id };
    case 'Failed':
      // Only the app's own word that the SMS never left the phone sends the task elsewhere (nothing-sent.ts).
      if (!phoneSentNothing(error)) return failed(error || 'the phone reported the send failed');
      return { status: 'failed', error: error ?? '', retry: true, ...(refusedForVolume(error) ? { reason: 'carrier_volume' as const } : {}) };
    case 'Cancelled':
      return failed('the SMS was cancelled on the phone');
    default:
      return undefined;
  }
}

/**
 * Whether the phone's message with this id is this task's: same recipient and, where the app shows
 * the content (v1.39+ answers `textMessage`), same text.
 */
function isThisSms(message: MessageState, sms: OutgoingSms): boolean {
  const recipients = Array.isArray(message.recipients) ? message.recipients : [];
  const text = (message as { textMessage?: { text?: unknown } | null }).textMessage?.text;
  return (recipients.length === 0 || recipients.some((recipient) => recipient.phoneNumber === sms.recipient)) && (typeof text !== 'string' || text === sms.message);
}

/** The recipient's own state and error (ProcessingState.kt), else the message's. */
function recipientOf(message: MessageState, recipient: string): { state: string; error?: string | null } {
  const recipients = Array.isArray(message.recipients) ? message.recipients : [];
  const own = recipients.find((candidate) => candidate.phoneNumber === recipient) ?? recipients[0];
  return own ? { state: String(own.state), error: own.error } : { state: String(message.state) };
}

/** The app's `simNumber` (1-based), or none: the phone's default SIM. */
function simNumberOf(sim: number | undefined): { simNumber?: number } {
  return sim === undefined ? {} : { simNumber: sim };
}

function failed(error: string): SendOutcome {
  return { status: 'failed', error };
}

function unknown(reason: string): SendOutcome {
  return { status: 'unknown', reason };
}
