import { sleep } from './backoff.js';

/**
 * The pace a send keeps: the one smsq names for the phone (`per_minute`), bounded by the worker's
 * own (`WORKER_SENDS_PER_MINUTE`, 0 bounding nothing); without smsq's, the worker's own. 0: unpaced.
 */
export function effectivePace(own: number, fromSmsq: number | null): number {
  if (fromSmsq === null) return own;
  return own === 0 ? fromSmsq : Math.min(own, fromSmsq);
}

/**
 * Spaces each phone's sends: at most `perMinute` a minute (or the pace smsq names for the task,
 * see `effectivePace`), each followed by up to `jitterMs` of random extra spacing, so a phone never
 * trips Android's limit on SMS sent by one app and its sends do not look machine-regular to the
 * carrier. Slots are booked as they are asked for, so several delivery loops sharing one phone
 * queue behind each other.
 */
export class SendPacer {
  private readonly nextSlot = new Map<string, number>();

  constructor(
    private readonly pacing: { perMinute: number; jitterMs: number },
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves true when `phone` may send, having booked that slot; false when `signal` aborted the wait
   * first. `perMinute`: the pace smsq names for the task's phone, null for none.
   */
  async waitTurn(phone: string, signal?: AbortSignal, perMinute: number | null = null): Promise<boolean> {
    const pace = effectivePace(this.pacing.perMinute, perMinute);
    if (pace === 0) return !signal?.aborted;
    const now = this.now();
    const at = Math.max(now, this.nextSlot.get(phone) ?? 0);
    this.nextSlot.set(phone, at + Math.ceil(60_000 / pace) + Math.floor(this.random() * this.pacing.jitterMs));
    await sleep(at - now, signal);
    return !signal?.aborted;
  }
}
