import type { Tlvs } from './tlv.js';

interface PduHeader<C extends string> {
  command: C;
  commandStatus: number;
  sequenceNumber: number;
  /** Optional parameters; read from every PDU, written when present. */
  tlvs?: Tlvs;
}

export type BindCommand = 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver';

export interface BindPdu extends PduHeader<BindCommand> {
  systemId: string;
  password: string;
  systemType: string;
  interfaceVersion: number;
  addrTon: number;
  addrNpi: number;
  addressRange: string;
}

export interface BindRespPdu extends PduHeader<`${BindCommand}_resp`> {
  systemId: string;
}

/** The mandatory fields submit_sm and deliver_sm share (SMPP 3.4 sections 4.4.1 and 4.6.1). */
export interface ShortMessageFields {
  serviceType: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  destinationAddr: string;
  esmClass: number;
  protocolId: number;
  priorityFlag: number;
  scheduleDeliveryTime: string;
  validityPeriod: string;
  registeredDelivery: number;
  replaceIfPresentFlag: number;
  dataCoding: number;
  smDefaultMsgId: number;
  /** The octets as sent; sm_length is its length. */
  shortMessage: Buffer;
}

export interface SubmitSmPdu extends PduHeader<'submit_sm'>, ShortMessageFields {
  tlvs: Tlvs;
}

export interface DeliverSmPdu extends PduHeader<'deliver_sm'>, ShortMessageFields {
  tlvs: Tlvs;
}

export interface MessageIdRespPdu<C extends 'submit_sm_resp' | 'deliver_sm_resp'> extends PduHeader<C> {
  messageId: string;
}

export type SubmitSmRespPdu = MessageIdRespPdu<'submit_sm_resp'>;
export type DeliverSmRespPdu = MessageIdRespPdu<'deliver_sm_resp'>;

export interface QuerySmPdu extends PduHeader<'query_sm'> {
  messageId: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
}

export interface QuerySmRespPdu extends PduHeader<'query_sm_resp'> {
  messageId: string;
  /** Absolute SMPP time the message reached its final state, or '' while it has not. */
  finalDate: string;
  messageState: number;
  errorCode: number;
}

export interface CancelSmPdu extends PduHeader<'cancel_sm'> {
  serviceType: string;
  messageId: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  destinationAddr: string;
}

export type HeaderOnlyCommand = 'generic_nack' | 'unbind' | 'unbind_resp' | 'enquire_link' | 'enquire_link_resp' | 'cancel_sm_resp';

export type HeaderOnlyPdu = PduHeader<HeaderOnlyCommand>;

export type Pdu =
  | BindPdu
  | BindRespPdu
  | SubmitSmPdu
  | SubmitSmRespPdu
  | DeliverSmPdu
  | DeliverSmRespPdu
  | QuerySmPdu
  | QuerySmRespPdu
  | CancelSmPdu
  | HeaderOnlyPdu;

/** The result of reading one framed PDU. */
export type DecodedPdu =
  | { kind: 'pdu'; pdu: Pdu }
  /** An id smsq does not speak: answer generic_nack ESME_RINVCMDID with this sequence number. */
  | { kind: 'unknown-command'; commandId: number; sequenceNumber: number }
  /**
   * A known command whose body cannot be read: answer a request's response (or generic_nack for a
   * response) with `status`, which names what was wrong.
   */
  | { kind: 'malformed'; commandId: number; command: Pdu['command']; sequenceNumber: number; status: number; reason: string };
