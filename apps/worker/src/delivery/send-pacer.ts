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
 * The longest random pause added between two sends, ms: the `jitter` smsq names for the phone
 * whenever it names one (0 included); else the worker's own `WORKER_SEND_JITTER_MS`, which belongs
 * to a pace and so is off while the send is unpaced.
 */
export function effectiveJitterMs(ownMs: number, pace: number, fromSmsqS: number | null): number {
  if (fromSmsqS !== null) return fromSmsqS * 1000;
  return pace > 0 ? ownMs : 0;
}

/** What smsq says of the task whose turn is asked: each field as the claim named it (pending-task.ts). */
export interface TurnRequest {
  /** smsq's pace for the task's phone (SMS parts a minute); null: none. */
  perMinute?: number | null;
  /** SMS parts the message costs: each uses one of the minute's allowance, as carriers count. Default 1. */
  parts?: number;
  /** smsq's jitter for the task's phone, seconds; null: the worker's own. */
  jitterS?: number | null;
  /** Epoch ms, local clock, when the task's claim lapses: a turn that would come at or after it is not taken. */
  deadline?: number;
}

/** `go`: send now, the slot is booked. `stopped`: the signal aborted the wait. `lapsed`: the turn would come too late for the claim; nothing booked. */
export type Turn = 'go' | 'stopped' | 'lapsed';

/**
 * Spaces each phone's sends: at most `perMinute` SMS parts a minute (or the pace smsq names for the
 * task's phone, see `effectivePace`), so a 3-part message takes three of the minute's slots, and
 * after each send up to the jitter (`effectiveJitterMs`) of random extra spacing, so a phone never
 * trips Android's limit on SMS sent by one app and its sends do not look machine-regular to the
 * carrier. Slots are booked as they are asked for, so several delivery loops sharing one phone
 * queue behind each other; a task whose turn would come after its claim lapses books none.
 */
export class SendPacer {
  private readonly nextSlot = new Map<string, number>();

  constructor(
    private readonly pacing: { perMinute: number; jitterMs: number },
    private readonly random: () => number = Math.random,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number, signal?: AbortSignal) => Promise<void> = sleep,
  ) {}

  /** Resolves once `phone` may send this task, having booked its slot; or why it may not. */
  async waitTurn(phone: string, signal?: AbortSignal, task: TurnRequest = {}): Promise<Turn> {
    const pace = effectivePace(this.pacing.perMinute, task.perMinute ?? null);
    const jitterMs = effectiveJitterMs(this.pacing.jitterMs, pace, task.jitterS ?? null);
    const now = this.now();
    const at = pace === 0 && jitterMs === 0 ? now : Math.max(now, this.nextSlot.get(phone) ?? 0);
    if (task.deadline !== undefined && at >= task.deadline) return 'lapsed';
    if (signal?.aborted) return 'stopped';
    if (pace === 0 && jitterMs === 0) return 'go';
    const spacingMs = pace === 0 ? 0 : Math.ceil(60_000 / pace) * (task.parts ?? 1);
    this.nextSlot.set(phone, at + spacingMs + Math.floor(this.random() * jitterMs));
    await this.wait(at - now, signal);
    return signal?.aborted ? 'stopped' : 'go';
  }
}
