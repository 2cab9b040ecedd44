export { CommandId, commandName, isResponse, knownCommand, responseIdOf, type CommandName } from './command-id.js';
export { CommandStatus, commandStatusName, type CommandStatusName } from './command-status.js';
export { EsmClass } from './esm-class.js';
export { FieldSize, HEADER_SIZE, SHORT_MESSAGE_MAX } from './field-sizes.js';
export { InvalidLongMessage, readMessageContent, type MessageContent, type MessagePart } from './long-message.js';
export { MessageState, type MessageStateName, type MessageStateValue } from './message-state.js';
export { PartRefused, type PartRefusalReason } from './part-refused.js';
export { PartsAssembler, type IncomingPart, type OpenMessageView, type PartOutcome, type PartsAssemblerOptions } from './parts-assembler.js';
export type {
  BindCommand,
  BindPdu,
  BindRespPdu,
  CancelSmPdu,
  DecodedPdu,
  DeliverSmPdu,
  DeliverSmRespPdu,
  HeaderOnlyCommand,
  HeaderOnlyPdu,
  Pdu,
  QuerySmPdu,
  QuerySmRespPdu,
  ShortMessageFields,
  SubmitSmPdu,
  SubmitSmRespPdu,
} from './pdu.js';
export { decodePdu } from './pdu-decoder.js';
export { encodePdu } from './pdu-encoder.js';
export { DEFAULT_MAX_PDU_LENGTH, PduFramer, type BrokenStream, type FramedChunk } from './pdu-framer.js';
export { MESSAGE_STATE_BY_STAT, receiptDate, receiptText, type ReceiptFacts, type ReceiptStat } from './receipt-text.js';
export { SequenceNumbers } from './sequence-numbers.js';
export { SmppRefusal } from './smpp-refusal.js';
export { formatSmppTime, InvalidSmppTime, parseSmppTime } from './smpp-time.js';
export { DataCoding, decodeText, encodeText, gsmSeptetsOf, isSupportedDataCoding, UndecodableText, UnsupportedDataCoding, ucs2Of, type EncodedText, type SupportedDataCoding } from './text-coding.js';
export {
  cStringTlv,
  networkErrorCodeTlv,
  readCStringTlv,
  readNetworkErrorCodeTlv,
  readUint16Tlv,
  readUint8Tlv,
  SMPP_VERSION_34,
  TlvTag,
  uint16Tlv,
  uint8Tlv,
  type Tlvs,
} from './tlv.js';
