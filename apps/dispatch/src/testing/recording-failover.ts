import type { PhoneFailover } from '../failover/phone-failover.js';
import type { PublicOf } from './stand-in.js';

/** Records the phones whose waiting tasks were to be moved; moves nothing. */
export class RecordingFailover implements Pick<PublicOf<PhoneFailover>, 'moveFrom' | 'sweepOnce'> {
  readonly movedFrom: number[] = [];

  async moveFrom(phoneId: number): Promise<number> {
    this.movedFrom.push(phoneId);
    return 0;
  }

  async sweepOnce(): Promise<number> {
    return 0;
  }
}

/** The recording failover, where services ask for the real one. */
export function failoverOf(recording: RecordingFailover): PhoneFailover {
  return recording as unknown as PhoneFailover;
}
