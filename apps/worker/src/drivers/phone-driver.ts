/**
 * How the worker reaches a phone. One driver per setup (docs/guide/phones.md): SMS Gateway for Android in
 * Local Server mode, Termux:API on the phone itself, or a generic HTTP gateway. The delivery loop
 * claims a task, paces it, hands it to `send`, reports what `send` answered, and afterwards asks
 * `followDelivery` (when the driver has one) whether the carrier confirmed delivery.
 */

/** One SMS as a driver sees it. */
export interface OutgoingSms {
  /** The smsq task id. */
  taskId: number;
  /**
   * A name for this SMS, the same on every claim of the task and unique across smsq installations
   * (`smsq-<task id>-<scheduled time>`): drivers that can name a message use it, so a resend after a
   * crash is refused by the phone, and a phone that served an earlier smsq database never takes a
   * new task for one it already sent.
   */
  messageKey: string;
  recipient: string;
  message: string;
  /** The task's gateway URL from smsq (the phone's or gateway's address); null when it registered none. */
  gatewayUrl: string | null;
  /** Epoch ms on the local clock when the claim lapses: the phone must be done with the SMS before it. */
  claimDeadline: number;
  /**
   * The SIM smsq chose for this task (1-based, smsq's `sim`), over the worker's own WORKER_SIM; absent:
   * the worker's own, else the phone's default. Drivers whose phone cannot choose ignore it.
   */
  sim?: number;
}

/**
 * What the phone made of an SMS. `sent`: handed to the carrier. `failed`: the phone said so, or it
 * could not be handed over. `unknown`: the phone may still hold it and could still send it, so it is
 * reported neither way: the lease returns the task, and the next claim asks the phone again.
 */
export type SendOutcome =
  | { status: 'sent'; delivered: boolean; messageId?: string }
  | SendFailure
  | { status: 'unknown'; reason: string };

/**
 * Why nothing was sent, where the phone says (smsq's `reason`): `carrier_volume`, the carrier or
 * Android refused the send for volume. smsq then pauses the phone and moves its waiting tasks.
 */
export type FailureReason = 'carrier_volume';

/**
 * A failed send. `retry`: the phone's own word that nothing was sent (no service, radio off, its
 * queue expired the SMS, the app refused it before sending); smsq then puts the task back in the
 * queue, on another phone where there is one. Never set for an invalid number, a blocked recipient
 * or an outcome nobody knows: those stay final, or `unknown`. `reason`, only with `retry`: why.
 */
export interface SendFailure {
  status: 'failed';
  error: string;
  retry?: true;
  reason?: FailureReason;
}

/** A reply the phone received, on its way to `POST /smsapi/inbound`. */
export interface ReceivedSms {
  from: string;
  message: string;
  /** ISO 8601 instant. */
  receivedAt: string;
  /** The phone's own id of the message, so a resync stores nothing twice. */
  externalId: string;
}

/** What the phone says of itself, where its app reports it. */
export interface PhoneHealth {
  batteryPercent?: number;
  charging?: boolean;
  /** The phone's connection as its app names it (`WIFI`, `CELLULAR`, …). */
  connection?: string;
}

/** Hands replies to smsq; resolves once smsq stored them, rejects when they must be offered again later. */
export type ReplySink = (replies: ReceivedSms[]) => Promise<void>;

export interface PhoneDriver {
  /** `smsgate`, `termux` or `http`: for logs. */
  readonly name: string;
  /**
   * Hands the SMS to the phone (from `sms.sim` where the phone can choose) and follows it until the
   * phone says sent or failed, or the claim is about to lapse. Never throws. Must never make the
   * phone send the same task twice. A refusal for volume is `failed` with `retry` and `reason`.
   */
  send(sms: OutgoingSms, signal: AbortSignal): Promise<SendOutcome>;
  /** After `sent` without `delivered`: resolves true once the phone has the carrier's delivery report, false when it gave up waiting. */
  followDelivery?(sms: OutgoingSms, signal: AbortSignal): Promise<boolean>;
  /** Starts handing new replies to `sink` until `signal` aborts; resolves when stopped. */
  watchReplies?(sink: ReplySink, signal: AbortSignal): Promise<void>;
  /** The phone's battery and connection, or undefined when it cannot tell. */
  health?(signal: AbortSignal): Promise<PhoneHealth | undefined>;
}
