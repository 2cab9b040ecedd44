import { MAX_CLAIM_LIMIT } from '../config/worker-config.js';
import { effectiveJitterMs, effectivePace } from './send-pacer.js';

/**
 * How long one claim's tasks may wait in the worker before they are sent. A claimed task is out of
 * smsq's reach (no failover to another phone, no cancel) until it is reported, and on a crash it
 * waits out its lease: so a claim takes only what the phone sends in this window, never more than
 * it sends before the lease runs out.
 */
export const CLAIM_WINDOW_MS = 2_000;

/** Weight of the newest send in the running mean of send times. */
const SEND_TIME_WEIGHT = 0.2;

export interface ClaimSizerOptions {
  /** WORKER_CLAIM_LIMIT: a fixed size, or undefined to size each claim from the pace. */
  fixed: number | undefined;
  /** The worker's own pace (WORKER_SENDS_PER_MINUTE, 0: unpaced) and jitter. */
  pacing: { perMinute: number; jitterMs: number };
  /** Poll loops sharing the phone's pace. */
  concurrency: number;
}

/**
 * The `limit` of the next claim: what the phone can send within one claim, pace × claim time
 * (DESIGN "Beyond the specification"), bounded 1–100. The time one SMS takes is the pacer's
 * spacing (smsq's `per_minute` for the phone when it names one, bounded by the worker's own, plus
 * half the jitter, smsq's for the phone when it names one, shared by the loops) or, unpaced and
 * unjittered, the phone's own measured send time; a message of several parts takes several slots,
 * which the batch's give-back (delivery-worker.ts) absorbs rather than this estimate; the claim
 * time is `CLAIM_WINDOW_MS`, never beyond the lease. Before the first send is measured an unpaced
 * phone claims one task at a time, as a phone paced at one SMS every few seconds always does:
 * those keep to DESIGN §3's single claim and report.
 */
export class ClaimSizer {
  private perMinuteFromSmsq: number | null = null;
  private jitterFromSmsqS: number | null = null;
  private leaseMs = Number.POSITIVE_INFINITY;
  private meanSendMs: number | undefined;

  constructor(private readonly options: ClaimSizerOptions) {}

  /** A task claimed: the pace and jitter smsq names for its phone and how long its claim holds, as of `receivedAt`. */
  claimed(task: { perMinute: number | null; jitterS?: number | null; claimDeadline: number }, receivedAt = Date.now()): void {
    this.perMinuteFromSmsq = task.perMinute;
    this.jitterFromSmsqS = task.jitterS ?? null;
    this.leaseMs = Math.max(0, task.claimDeadline - receivedAt);
  }

  /** One send handed to the phone took this long, whatever it answered. */
  sendTook(ms: number): void {
    this.meanSendMs = this.meanSendMs === undefined ? ms : this.meanSendMs + SEND_TIME_WEIGHT * (ms - this.meanSendMs);
  }

  limit(): number {
    if (this.options.fixed !== undefined) return this.options.fixed;
    const pace = effectivePace(this.options.pacing.perMinute, this.perMinuteFromSmsq);
    const jitterMs = effectiveJitterMs(this.options.pacing.jitterMs, pace, this.jitterFromSmsqS);
    // Paced (or jittered) sends of every loop queue behind each other for the phone's slots.
    const slotMs = ((pace > 0 ? 60_000 / pace : 0) + jitterMs / 2) * this.options.concurrency;
    const perSendMs = Math.max(slotMs, this.meanSendMs ?? (slotMs > 0 ? 0 : Number.POSITIVE_INFINITY));
    const claimMs = Math.min(CLAIM_WINDOW_MS, this.leaseMs);
    return Math.min(MAX_CLAIM_LIMIT, Math.max(1, Math.floor(claimMs / Math.max(perSendMs, 1))));
  }
}
