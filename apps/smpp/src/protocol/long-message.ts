import { CommandStatus } from './command-status.js';
import { EsmClass } from './esm-class.js';
import type { ShortMessageFields } from './pdu.js';
import { SmppRefusal } from './smpp-refusal.js';
import { decodeText } from './text-coding.js';
import { readUint16Tlv, readUint8Tlv, TlvTag, type Tlvs } from './tlv.js';

/** One part of a concatenated message, as its PDU numbered it. */
export interface MessagePart {
  reference: number;
  total: number;
  /** 1-based position of this part. */
  seq: number;
  dataCoding: number;
  /** The part's text octets, UDH removed. */
  userData: Buffer;
}

export type MessageContent = { kind: 'whole'; text: string } | { kind: 'part'; part: MessagePart };

/** A submit_sm whose long-message fields contradict each other; `status` says which rule it broke. */
export class InvalidLongMessage extends SmppRefusal {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
    this.name = InvalidLongMessage.name;
  }
}

const IEI_CONCAT_8BIT_REF = 0x00;
const IEI_CONCAT_16BIT_REF = 0x08;

type Numbering = Pick<MessagePart, 'reference' | 'total' | 'seq'>;

/**
 * What a submit_sm (or deliver_sm) carries: a whole text, or one numbered part of a longer one. The
 * text comes from message_payload when present, else short_message; the numbering from a UDH
 * concatenation element when esm_class has UDHI, else from the sar_ parameters. A part's octets are
 * decoded here too, so text that cannot be read is refused at its own part.
 */
export function readMessageContent(fields: Pick<ShortMessageFields, 'esmClass' | 'dataCoding' | 'shortMessage'> & { tlvs: Tlvs }): MessageContent {
  const payload = fields.tlvs.get(TlvTag.messagePayload);
  if (payload && fields.shortMessage.length > 0) {
    throw new InvalidLongMessage(CommandStatus.ESME_RINVMSGLEN, 'message_payload was sent with a non-empty short_message; sm_length must be 0');
  }
  const octets = payload ?? fields.shortMessage;
  const { userData, numbering: udhNumbering } = (fields.esmClass & EsmClass.udhi) !== 0 ? readUdh(octets) : { userData: octets, numbering: undefined };
  const numbering = udhNumbering ?? sarNumbering(fields.tlvs);
  const text = decodeText(userData, fields.dataCoding);
  if (!numbering || numbering.total === 1) return { kind: 'whole', text };
  return { kind: 'part', part: { ...numbering, dataCoding: fields.dataCoding, userData } };
}

function readUdh(octets: Buffer): { userData: Buffer; numbering: Numbering | undefined } {
  const udhLength = octets[0];
  if (udhLength === undefined || udhLength + 1 > octets.length) throw new InvalidLongMessage(CommandStatus.ESME_RINVESMCLASS, 'esm_class has UDHI but the message holds no whole UDH');
  let numbering: Numbering | undefined;
  let offset = 1;
  while (offset < udhLength + 1) {
    const iei = octets[offset]!;
    const length = octets[offset + 1];
    if (length === undefined || offset + 2 + length > udhLength + 1) throw new InvalidLongMessage(CommandStatus.ESME_RINVESMCLASS, `UDH element 0x${iei.toString(16)} runs past the UDH`);
    const data = octets.subarray(offset + 2, offset + 2 + length);
    if (iei === IEI_CONCAT_8BIT_REF || iei === IEI_CONCAT_16BIT_REF) {
      const expected = iei === IEI_CONCAT_8BIT_REF ? 3 : 4;
      if (length !== expected) throw new InvalidLongMessage(CommandStatus.ESME_RINVESMCLASS, `UDH concatenation element 0x${iei.toString(16)} has length ${length}, not ${expected}`);
      const reference = iei === IEI_CONCAT_8BIT_REF ? data[0]! : data.readUInt16BE(0);
      numbering = checkedNumbering({ reference, total: data[expected - 2]!, seq: data[expected - 1]! }, 'UDH');
    }
    offset += 2 + length;
  }
  return { userData: octets.subarray(udhLength + 1), numbering };
}

function sarNumbering(tlvs: Tlvs): Numbering | undefined {
  const reference = readUint16Tlv(tlvs, TlvTag.sarMsgRefNum);
  const total = readUint8Tlv(tlvs, TlvTag.sarTotalSegments);
  const seq = readUint8Tlv(tlvs, TlvTag.sarSegmentSeqnum);
  if (reference === undefined && total === undefined && seq === undefined) return undefined;
  if (reference === undefined || total === undefined || seq === undefined) {
    throw new InvalidLongMessage(CommandStatus.ESME_RMISSINGOPTPARAM, 'sar_msg_ref_num, sar_total_segments and sar_segment_seqnum come together');
  }
  return checkedNumbering({ reference, total, seq }, 'sar_');
}

function checkedNumbering(numbering: Numbering, source: string): Numbering {
  if (numbering.total === 0 || numbering.seq === 0 || numbering.seq > numbering.total) {
    throw new InvalidLongMessage(CommandStatus.ESME_RINVOPTPARAMVAL, `${source} numbers part ${numbering.seq} of ${numbering.total}`);
  }
  return numbering;
}
