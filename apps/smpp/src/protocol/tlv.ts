/** Optional parameters of a PDU by tag, in the order they were read or are to be written. */
export type Tlvs = Map<number, Buffer>;

/** Tags of the optional parameters smsq reads or writes (SMPP 3.4 section 5.3.2). */
export const TlvTag = {
  receiptedMessageId: 0x001e,
  sarMsgRefNum: 0x020c,
  sarTotalSegments: 0x020e,
  sarSegmentSeqnum: 0x020f,
  scInterfaceVersion: 0x0210,
  networkErrorCode: 0x0423,
  messagePayload: 0x0424,
  messageState: 0x0427,
} as const;

/** Smsq speaks SMPP 3.4, announced in sc_interface_version of a bind response. */
export const SMPP_VERSION_34 = 0x34;

const RECEIPTED_MESSAGE_ID_MAX = 65;

/**
 * The value length a known tag must have; a value of another length is refused with ESME_RINVPARLEN
 * when the PDU is read, so the readers below can trust it.
 */
export function tlvLengthFits(tag: number, length: number): boolean {
  switch (tag) {
    case TlvTag.sarMsgRefNum:
      return length === 2;
    case TlvTag.sarTotalSegments:
    case TlvTag.sarSegmentSeqnum:
    case TlvTag.scInterfaceVersion:
    case TlvTag.messageState:
      return length === 1;
    case TlvTag.networkErrorCode:
      return length === 3;
    case TlvTag.receiptedMessageId:
      return length >= 1 && length <= RECEIPTED_MESSAGE_ID_MAX;
    default:
      return true;
  }
}

export function uint8Tlv(value: number): Buffer {
  return Buffer.of(value & 0xff);
}

export function uint16Tlv(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value & 0xffff);
  return buffer;
}

export function cStringTlv(text: string): Buffer {
  const value = Buffer.from(`${text}\0`, 'latin1');
  if (value.length > RECEIPTED_MESSAGE_ID_MAX) throw new RangeError(`C-string TLV longer than ${RECEIPTED_MESSAGE_ID_MAX - 1} characters`);
  return value;
}

/** network_error_code: network type (1 GSM, 2 ANSI-136, 3 IS-95) and that network's error code. */
export function networkErrorCodeTlv(networkType: number, errorCode: number): Buffer {
  const buffer = Buffer.alloc(3);
  buffer.writeUInt8(networkType & 0xff, 0);
  buffer.writeUInt16BE(errorCode & 0xffff, 1);
  return buffer;
}

export function readUint8Tlv(tlvs: Tlvs, tag: number): number | undefined {
  const value = tlvs.get(tag);
  return value && value.length >= 1 ? value.readUInt8(0) : undefined;
}

export function readUint16Tlv(tlvs: Tlvs, tag: number): number | undefined {
  const value = tlvs.get(tag);
  return value && value.length >= 2 ? value.readUInt16BE(0) : undefined;
}

/** A C-string value without its NUL (tolerating a peer that left the NUL out). */
export function readCStringTlv(tlvs: Tlvs, tag: number): string | undefined {
  const value = tlvs.get(tag);
  if (!value) return undefined;
  const end = value.indexOf(0);
  return value.toString('latin1', 0, end === -1 ? value.length : end);
}

export function readNetworkErrorCodeTlv(tlvs: Tlvs): { networkType: number; errorCode: number } | undefined {
  const value = tlvs.get(TlvTag.networkErrorCode);
  return value && value.length === 3 ? { networkType: value.readUInt8(0), errorCode: value.readUInt16BE(1) } : undefined;
}
