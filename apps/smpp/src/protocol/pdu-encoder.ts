import { CommandId } from './command-id.js';
import { FieldSize, HEADER_SIZE, SHORT_MESSAGE_MAX } from './field-sizes.js';
import type { Pdu, ShortMessageFields } from './pdu.js';
import type { Tlvs } from './tlv.js';

/** Builds a PDU body; a value that cannot be written is a bug in the caller, so it throws. */
class PduBodyWriter {
  private readonly chunks: Buffer[] = [];

  uint8(value: number): this {
    this.chunks.push(Buffer.of(value & 0xff));
    return this;
  }

  cString(field: string, value: string, maxSize: number): this {
    const octets = Buffer.from(`${value}\0`, 'latin1');
    if (octets.length > maxSize || value.includes('\0')) throw new RangeError(`${field} must be at most ${maxSize - 1} characters without NUL`);
    this.chunks.push(octets);
    return this;
  }

  octets(value: Buffer): this {
    this.chunks.push(value);
    return this;
  }

  tlvs(tlvs: Tlvs | undefined): this {
    for (const [tag, value] of tlvs ?? []) {
      if (value.length > 0xffff) throw new RangeError(`optional parameter 0x${tag.toString(16)} is longer than 65535 octets`);
      const head = Buffer.alloc(4);
      head.writeUInt16BE(tag, 0);
      head.writeUInt16BE(value.length, 2);
      this.chunks.push(head, value);
    }
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * Writes a PDU with its command_length. Responses carry their body even when they refuse: every
 * client reads a body, while some fail on a response without one.
 */
export function encodePdu(pdu: Pdu): Buffer {
  const body = new PduBodyWriter();
  writeBody(pdu, body);
  body.tlvs(pdu.tlvs);
  const bodyOctets = body.toBuffer();
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32BE(HEADER_SIZE + bodyOctets.length, 0);
  header.writeUInt32BE(CommandId[pdu.command], 4);
  header.writeUInt32BE(pdu.commandStatus >>> 0, 8);
  header.writeUInt32BE(pdu.sequenceNumber >>> 0, 12);
  return Buffer.concat([header, bodyOctets]);
}

function writeBody(pdu: Pdu, body: PduBodyWriter): void {
  switch (pdu.command) {
    case 'bind_transmitter':
    case 'bind_receiver':
    case 'bind_transceiver':
      body
        .cString('system_id', pdu.systemId, FieldSize.systemId)
        .cString('password', pdu.password, FieldSize.password)
        .cString('system_type', pdu.systemType, FieldSize.systemType)
        .uint8(pdu.interfaceVersion)
        .uint8(pdu.addrTon)
        .uint8(pdu.addrNpi)
        .cString('address_range', pdu.addressRange, FieldSize.addressRange);
      return;
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      body.cString('system_id', pdu.systemId, FieldSize.systemId);
      return;
    case 'submit_sm':
    case 'deliver_sm':
      writeShortMessageFields(pdu, body);
      return;
    case 'submit_sm_resp':
    case 'deliver_sm_resp':
      body.cString('message_id', pdu.messageId, FieldSize.messageId);
      return;
    case 'query_sm':
      body.cString('message_id', pdu.messageId, FieldSize.messageId).uint8(pdu.sourceAddrTon).uint8(pdu.sourceAddrNpi).cString('source_addr', pdu.sourceAddr, FieldSize.address);
      return;
    case 'query_sm_resp':
      body.cString('message_id', pdu.messageId, FieldSize.messageId).cString('final_date', pdu.finalDate, FieldSize.time).uint8(pdu.messageState).uint8(pdu.errorCode);
      return;
    case 'cancel_sm':
      body
        .cString('service_type', pdu.serviceType, FieldSize.serviceType)
        .cString('message_id', pdu.messageId, FieldSize.messageId)
        .uint8(pdu.sourceAddrTon)
        .uint8(pdu.sourceAddrNpi)
        .cString('source_addr', pdu.sourceAddr, FieldSize.address)
        .uint8(pdu.destAddrTon)
        .uint8(pdu.destAddrNpi)
        .cString('destination_addr', pdu.destinationAddr, FieldSize.address);
      return;
    case 'generic_nack':
    case 'unbind':
    case 'unbind_resp':
    case 'enquire_link':
    case 'enquire_link_resp':
    case 'cancel_sm_resp':
      return;
  }
}

function writeShortMessageFields(fields: ShortMessageFields, body: PduBodyWriter): void {
  if (fields.shortMessage.length > SHORT_MESSAGE_MAX) throw new RangeError(`short_message must be at most ${SHORT_MESSAGE_MAX} octets; use message_payload`);
  body
    .cString('service_type', fields.serviceType, FieldSize.serviceType)
    .uint8(fields.sourceAddrTon)
    .uint8(fields.sourceAddrNpi)
    .cString('source_addr', fields.sourceAddr, FieldSize.address)
    .uint8(fields.destAddrTon)
    .uint8(fields.destAddrNpi)
    .cString('destination_addr', fields.destinationAddr, FieldSize.address)
    .uint8(fields.esmClass)
    .uint8(fields.protocolId)
    .uint8(fields.priorityFlag)
    .cString('schedule_delivery_time', fields.scheduleDeliveryTime, FieldSize.time)
    .cString('validity_period', fields.validityPeriod, FieldSize.time)
    .uint8(fields.registeredDelivery)
    .uint8(fields.replaceIfPresentFlag)
    .uint8(fields.dataCoding)
    .uint8(fields.smDefaultMsgId)
    .uint8(fields.shortMessage.length)
    .octets(fields.shortMessage);
}
