import { describe, expect, it } from 'vitest';
import { CommandStatus } from './command-status.js';
import { encodePdu } from './pdu-encoder.js';
import { PduFramer } from './pdu-framer.js';

const enquireLink = (sequenceNumber: number) => encodePdu({ command: 'enquire_link', commandStatus: 0, sequenceNumber });
const submitSmResp = encodePdu({ command: 'submit_sm_resp', commandStatus: 0, sequenceNumber: 3, messageId: 'task-1' });

describe(PduFramer.name, () => {
  it('puts a PDU together from chunks cut anywhere', () => {
    const sut = new PduFramer();
    const bytes = Buffer.concat([enquireLink(1), submitSmResp]);

    const pieces = [bytes.subarray(0, 3), bytes.subarray(3, 17), bytes.subarray(17, 20), bytes.subarray(20)].map((chunk) => sut.push(chunk));

    expect(pieces.flatMap((piece) => piece.pdus)).toEqual([enquireLink(1), submitSmResp]);
    expect(pieces.every((piece) => piece.broken === undefined)).toBe(true);
    expect(sut.buffered).toBe(0);
  });

  it('hands out every PDU of one chunk, in order, and keeps the start of the next', () => {
    const sut = new PduFramer();

    const { pdus } = sut.push(Buffer.concat([enquireLink(1), enquireLink(2), enquireLink(3).subarray(0, 10)]));

    expect(pdus).toEqual([enquireLink(1), enquireLink(2)]);
    expect(sut.buffered).toBe(10);
  });

  it('breaks on a command_length under 16, naming the sequence number when the header arrived', () => {
    const sut = new PduFramer();
    const bad = Buffer.from(enquireLink(9));
    bad.writeUInt32BE(8, 0);

    expect(sut.push(Buffer.concat([enquireLink(1), bad]))).toEqual({
      pdus: [enquireLink(1)],
      broken: { commandLength: 8, sequenceNumber: 9, status: CommandStatus.ESME_RINVCMDLEN },
    });
  });

  it('breaks on a command_length over the maximum without waiting for its octets', () => {
    const sut = new PduFramer(1024);

    expect(sut.push(Buffer.of(0, 0, 0x04, 0x01))).toEqual({ pdus: [], broken: { commandLength: 1025, sequenceNumber: 0, status: CommandStatus.ESME_RINVCMDLEN } });
  });

  it('stays broken: nothing after the break is framed', () => {
    const sut = new PduFramer();
    sut.push(Buffer.of(0, 0, 0, 0));

    expect(sut.push(enquireLink(2))).toMatchObject({ pdus: [], broken: { commandLength: 0 } });
  });
});
