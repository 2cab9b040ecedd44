import { CommandStatus } from './command-status.js';
import { tlvLengthFits, type Tlvs } from './tlv.js';

/** A PDU body that cannot be read; `status` is what the peer is answered. */
export class MalformedBody extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
    this.name = MalformedBody.name;
  }
}

/** Reads a PDU body field by field, refusing anything that runs past the body or past a field's size. */
export class PduBodyReader {
  private offset: number;

  constructor(
    private readonly frame: Buffer,
    start: number,
  ) {
    this.offset = start;
  }

  get atEnd(): boolean {
    return this.offset >= this.frame.length;
  }

  uint8(field: string): number {
    if (this.offset + 1 > this.frame.length) throw new MalformedBody(CommandStatus.ESME_RINVCMDLEN, `${field} runs past the end of the PDU`);
    return this.frame.readUInt8(this.offset++);
  }

  /** A C-octet string of at most `maxSize` octets including its NUL; `overLongStatus` answers a longer one. */
  cString(field: string, maxSize: number, overLongStatus: number = CommandStatus.ESME_RINVCMDLEN): string {
    const searchEnd = Math.min(this.frame.length, this.offset + maxSize);
    const nul = this.frame.indexOf(0, this.offset);
    if (nul === -1 || nul >= searchEnd) {
      if (nul === -1 && searchEnd === this.frame.length) throw new MalformedBody(CommandStatus.ESME_RINVCMDLEN, `${field} has no terminating NUL`);
      throw new MalformedBody(overLongStatus, `${field} is longer than ${maxSize - 1} characters`);
    }
    const text = this.frame.toString('latin1', this.offset, nul);
    this.offset = nul + 1;
    return text;
  }

  octets(field: string, length: number): Buffer {
    if (this.offset + length > this.frame.length) throw new MalformedBody(CommandStatus.ESME_RINVCMDLEN, `${field} runs past the end of the PDU`);
    const value = Buffer.from(this.frame.subarray(this.offset, this.offset + length));
    this.offset += length;
    return value;
  }

  /** The optional parameters that fill the rest of the body. */
  tlvs(): Tlvs {
    const tlvs: Tlvs = new Map();
    while (!this.atEnd) {
      if (this.offset + 4 > this.frame.length) throw new MalformedBody(CommandStatus.ESME_RINVOPTPARSTREAM, 'truncated optional parameter header');
      const tag = this.frame.readUInt16BE(this.offset);
      const length = this.frame.readUInt16BE(this.offset + 2);
      this.offset += 4;
      if (this.offset + length > this.frame.length) {
        throw new MalformedBody(CommandStatus.ESME_RINVOPTPARSTREAM, `optional parameter 0x${tag.toString(16).padStart(4, '0')} runs past the end of the PDU`);
      }
      if (!tlvLengthFits(tag, length)) {
        throw new MalformedBody(CommandStatus.ESME_RINVPARLEN, `optional parameter 0x${tag.toString(16).padStart(4, '0')} has length ${length}`);
      }
      if (tlvs.has(tag)) throw new MalformedBody(CommandStatus.ESME_RINVOPTPARSTREAM, `optional parameter 0x${tag.toString(16).padStart(4, '0')} appears twice`);
      tlvs.set(tag, Buffer.from(this.frame.subarray(this.offset, this.offset + length)));
      this.offset += length;
    }
    return tlvs;
  }
}
