import { CommandStatus } from './command-status.js';
import { HEADER_SIZE } from './field-sizes.js';

/** A command_length no PDU can have: the stream cannot be framed any further. */
export interface BrokenStream {
  commandLength: number;
  /** The sequence number of the offending PDU when its header had arrived, else 0. */
  sequenceNumber: number;
  /** Answer generic_nack with this status, then close the connection. */
  status: typeof CommandStatus.ESME_RINVCMDLEN;
}

export interface FramedChunk {
  /** Whole PDUs, in order, each exactly command_length octets. */
  pdus: Buffer[];
  /** Set once the stream broke; the PDUs before the break are still in `pdus`. */
  broken?: BrokenStream;
}

export const DEFAULT_MAX_PDU_LENGTH = 64 * 1024;

/** Cuts a TCP byte stream into whole PDUs by their command_length. */
export class PduFramer {
  private pending: Buffer = Buffer.alloc(0);
  private brokenBy: BrokenStream | undefined;

  constructor(private readonly maxPduLength: number = DEFAULT_MAX_PDU_LENGTH) {}

  push(chunk: Buffer): FramedChunk {
    if (this.brokenBy) return { pdus: [], broken: this.brokenBy };
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const pdus: Buffer[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 4) {
      const commandLength = this.pending.readUInt32BE(offset);
      if (commandLength < HEADER_SIZE || commandLength > this.maxPduLength) {
        const sequenceNumber = this.pending.length - offset >= HEADER_SIZE ? this.pending.readUInt32BE(offset + 12) : 0;
        this.brokenBy = { commandLength, sequenceNumber, status: CommandStatus.ESME_RINVCMDLEN };
        this.pending = Buffer.alloc(0);
        return { pdus, broken: this.brokenBy };
      }
      if (this.pending.length - offset < commandLength) break;
      pdus.push(Buffer.from(this.pending.subarray(offset, offset + commandLength)));
      offset += commandLength;
    }
    this.pending = offset === 0 ? this.pending : Buffer.from(this.pending.subarray(offset));
    return { pdus };
  }

  /** Octets of a PDU that has begun to arrive. */
  get buffered(): number {
    return this.pending.length;
  }
}
