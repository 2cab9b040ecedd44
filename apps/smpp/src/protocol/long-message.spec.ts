import { describe, expect, it } from 'vitest';
import { CommandStatus } from './command-status.js';
import { InvalidLongMessage, readMessageContent } from './long-message.js';
import { DataCoding, UnsupportedDataCoding } from './text-coding.js';
import { TlvTag, uint16Tlv, uint8Tlv, type Tlvs } from './tlv.js';

const UDHI = 0x40;

function fields(shortMessage: Buffer, options: { esmClass?: number; dataCoding?: number; tlvs?: Tlvs } = {}) {
  return { esmClass: options.esmClass ?? 0, dataCoding: options.dataCoding ?? DataCoding.gsm, shortMessage, tlvs: options.tlvs ?? new Map() };
}

function refusalOf(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe(readMessageContent.name, () => {
  it('reads a short_message without UDH as a whole text', () => {
    expect(readMessageContent(fields(Buffer.from('Hello')))).toEqual({ kind: 'whole', text: 'Hello' });
  });

  it('reads a part numbered by a UDH with an 8-bit reference, its GSM text after the UDH one septet per octet', () => {
    const udh = Buffer.of(0x05, 0x00, 0x03, 0xa7, 0x03, 0x02);

    expect(readMessageContent(fields(Buffer.concat([udh, Buffer.from('part two')]), { esmClass: UDHI }))).toEqual({
      kind: 'part',
      part: { reference: 0xa7, total: 3, seq: 2, dataCoding: DataCoding.gsm, userData: Buffer.from('part two') },
    });
  });

  it('reads a part numbered by a UDH with a 16-bit reference, among other elements', () => {
    // A port addressing element (0x05) first, then concatenation with a 16-bit reference.
    const udh = Buffer.of(0x0c, 0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0, 0x08, 0x04, 0x12, 0x34, 0x02, 0x01);
    const text = Buffer.from('d83dde00', 'hex');

    expect(readMessageContent(fields(Buffer.concat([udh, text]), { esmClass: UDHI, dataCoding: DataCoding.ucs2 }))).toEqual({
      kind: 'part',
      part: { reference: 0x1234, total: 2, seq: 1, dataCoding: DataCoding.ucs2, userData: text },
    });
  });

  it('reads a whole text after a UDH that numbers no parts', () => {
    const udh = Buffer.of(0x06, 0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0);

    expect(readMessageContent(fields(Buffer.concat([udh, Buffer.from('ring')]), { esmClass: UDHI }))).toEqual({ kind: 'whole', text: 'ring' });
  });

  it('reads a part numbered by the sar_ parameters', () => {
    const tlvs: Tlvs = new Map([
      [TlvTag.sarMsgRefNum, uint16Tlv(0xbeef)],
      [TlvTag.sarTotalSegments, uint8Tlv(4)],
      [TlvTag.sarSegmentSeqnum, uint8Tlv(4)],
    ]);

    expect(readMessageContent(fields(Buffer.from('last'), { tlvs }))).toEqual({
      kind: 'part',
      part: { reference: 0xbeef, total: 4, seq: 4, dataCoding: DataCoding.gsm, userData: Buffer.from('last') },
    });
  });

  it('reads message_payload as the whole text when sm_length is 0', () => {
    const text = 'x'.repeat(400);

    expect(readMessageContent(fields(Buffer.alloc(0), { tlvs: new Map([[TlvTag.messagePayload, Buffer.from(text)]]) }))).toEqual({ kind: 'whole', text });
  });

  it('takes a single-part numbering as a whole text', () => {
    const udh = Buffer.of(0x05, 0x00, 0x03, 0x01, 0x01, 0x01);

    expect(readMessageContent(fields(Buffer.concat([udh, Buffer.from('one')]), { esmClass: UDHI }))).toEqual({ kind: 'whole', text: 'one' });
  });

  it('refuses message_payload beside a non-empty short_message with ESME_RINVMSGLEN', () => {
    const refusal = refusalOf(() => readMessageContent(fields(Buffer.from('short'), { tlvs: new Map([[TlvTag.messagePayload, Buffer.from('long')]]) })));

    expect(refusal).toBeInstanceOf(InvalidLongMessage);
    expect(refusal).toMatchObject({ status: CommandStatus.ESME_RINVMSGLEN });
  });

  it('refuses UDHI without a whole UDH with ESME_RINVESMCLASS', () => {
    expect(refusalOf(() => readMessageContent(fields(Buffer.of(0x09, 0x00, 0x03), { esmClass: UDHI })))).toMatchObject({ status: CommandStatus.ESME_RINVESMCLASS });
    expect(refusalOf(() => readMessageContent(fields(Buffer.alloc(0), { esmClass: UDHI })))).toMatchObject({ status: CommandStatus.ESME_RINVESMCLASS });
    expect(refusalOf(() => readMessageContent(fields(Buffer.of(0x04, 0x00, 0x03, 0x01, 0x02), { esmClass: UDHI })))).toMatchObject({ status: CommandStatus.ESME_RINVESMCLASS });
  });

  it('refuses part 0, total 0 and a part past the total with ESME_RINVOPTPARAMVAL', () => {
    for (const [total, seq] of [
      [3, 0],
      [0, 1],
      [2, 3],
    ] as const) {
      const udh = Buffer.of(0x05, 0x00, 0x03, 0x01, total, seq);

      expect(refusalOf(() => readMessageContent(fields(Buffer.concat([udh, Buffer.from('x')]), { esmClass: UDHI })))).toMatchObject({ status: CommandStatus.ESME_RINVOPTPARAMVAL });
    }
  });

  it('refuses a sar_ numbering missing one of its parameters with ESME_RMISSINGOPTPARAM', () => {
    const tlvs: Tlvs = new Map([
      [TlvTag.sarMsgRefNum, uint16Tlv(1)],
      [TlvTag.sarTotalSegments, uint8Tlv(2)],
    ]);

    expect(refusalOf(() => readMessageContent(fields(Buffer.from('x'), { tlvs })))).toMatchObject({ status: CommandStatus.ESME_RMISSINGOPTPARAM });
  });

  it("refuses a part whose text its data_coding cannot read, at that part", () => {
    const udh = Buffer.of(0x05, 0x00, 0x03, 0x01, 0x02, 0x01);

    expect(refusalOf(() => readMessageContent(fields(Buffer.concat([udh, Buffer.from('x')]), { esmClass: UDHI, dataCoding: 0x02 })))).toBeInstanceOf(UnsupportedDataCoding);
  });
});
