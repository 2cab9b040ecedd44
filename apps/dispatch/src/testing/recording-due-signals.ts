import type { DueSignals } from '../due-signals/due-signals.js';
import type { PublicOf } from './stand-in.js';

/** Due signals as the unit specs see them: every announced phone id, in order. */
export class RecordingDueSignals implements PublicOf<DueSignals> {
  readonly announced: number[] = [];

  async announce(phoneIds: Iterable<number>): Promise<void> {
    this.announced.push(...new Set(phoneIds));
  }
}
