import { sleep } from './backoff.js';

/**
 * Spaces each phone's sends: at most `perMinute` a minute, each followed by up to `jitterMs` of
 * random extra spacing, so a phone never trips Android's limit on SMS sent by one app and its
 * sends do not look machine-regular to the carrier. Slots are booked as they are asked for, so
 * several delivery loops sharing one phone queue behind each other.
 */
export class SendPacer {
  private readonly nextSlot = new Map<string, number>();

  constructor(
    private readonly pacing: { perMinute: number; jitterMs: number },
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves true when `phone` may send, having booked that slot; false when `signal` aborted the wait first. */
  async waitTurn(phone: string, signal?: AbortSignal): Promise<boolean> {
    if (this.pacing.perMinute === 0) return !signal?.aborted;
    const now = this.now();
    const at = Math.max(now, this.nextSlot.get(phone) ?? 0);
    this.nextSlot.set(phone, at + Math.ceil(60_000 / this.pacing.perMinute) + Math.floor(this.random() * this.pacing.jitterMs));
    await sleep(at - now, signal);
    return !signal?.aborted;
  }
}
