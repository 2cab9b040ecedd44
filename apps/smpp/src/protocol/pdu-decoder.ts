import { isResponse, knownCommand, type CommandName } from './command-id.js';
import { CommandStatus } from './command-status.js';
import { FieldSize, HEADER_SIZE, SHORT_MESSAGE_MAX } from './field-sizes.js';
import type { BindCommand, DecodedPdu, Pdu, ShortMessageFields } from './pdu.js';
import { MalformedBody, PduBodyReader } from './pdu-body-reader.js';

interface Header {
  commandStatus: number;
  sequenceNumber: number;
}

/**
 * Reads one whole PDU, as the framer hands it out. A known command whose body cannot be read comes
 * back as `malformed` with the status to answer; an unknown id as `unknown-command`.
 */
export function decodePdu(frame: Buffer): DecodedPdu {
  if (frame.length < HEADER_SIZE || frame.readUInt32BE(0) !== frame.length) {
    throw new RangeError(`a framed PDU must be at least ${HEADER_SIZE} octets and as long as its command_length`);
  }
  const commandId = frame.readUInt32BE(4);
  const header: Header = { commandStatus: frame.readUInt32BE(8), sequenceNumber: frame.readUInt32BE(12) };
  const command = knownCommand(commandId);
  if (!command) return { kind: 'unknown-command', commandId, sequenceNumber: header.sequenceNumber };

  const body = new PduBodyReader(frame, HEADER_SIZE);
  try {
    // A response refusing a request may leave out its body (SMPP 3.4 section 4.4.2 for submit_sm_resp).
    const pdu = (isResponse(commandId) && body.atEnd && emptyResponse(command, header)) || readBody(command, header, body);
    pdu.tlvs = body.tlvs();
    return { kind: 'pdu', pdu };
  } catch (error) {
    if (!(error instanceof MalformedBody)) throw error;
    return { kind: 'malformed', commandId, command, sequenceNumber: header.sequenceNumber, status: error.status, reason: error.message };
  }
}

function readBody(command: CommandName, header: Header, body: PduBodyReader): Pdu {
  switch (command) {
    case 'bind_transmitter':
    case 'bind_receiver':
    case 'bind_transceiver':
      return readBind(command, header, body);
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      return { command, ...header, systemId: body.cString('system_id', FieldSize.systemId) };
    case 'submit_sm':
    case 'deliver_sm':
      return { command, ...header, ...readShortMessageFields(body), tlvs: new Map() };
    case 'submit_sm_resp':
    case 'deliver_sm_resp':
      return { command, ...header, messageId: body.cString('message_id', FieldSize.messageId) };
    case 'query_sm':
      return {
        command,
        ...header,
        messageId: body.cString('message_id', FieldSize.messageId, CommandStatus.ESME_RINVMSGID),
        sourceAddrTon: body.uint8('source_addr_ton'),
        sourceAddrNpi: body.uint8('source_addr_npi'),
        sourceAddr: body.cString('source_addr', FieldSize.address, CommandStatus.ESME_RINVSRCADR),
      };
    case 'query_sm_resp':
      return {
        command,
        ...header,
        messageId: body.cString('message_id', FieldSize.messageId),
        finalDate: body.cString('final_date', FieldSize.time),
        messageState: body.uint8('message_state'),
        errorCode: body.uint8('error_code'),
      };
    case 'cancel_sm':
      return {
        command,
        ...header,
        serviceType: body.cString('service_type', FieldSize.serviceType),
        messageId: body.cString('message_id', FieldSize.messageId, CommandStatus.ESME_RINVMSGID),
        sourceAddrTon: body.uint8('source_addr_ton'),
        sourceAddrNpi: body.uint8('source_addr_npi'),
        sourceAddr: body.cString('source_addr', FieldSize.address, CommandStatus.ESME_RINVSRCADR),
        destAddrTon: body.uint8('dest_addr_ton'),
        destAddrNpi: body.uint8('dest_addr_npi'),
        destinationAddr: body.cString('destination_addr', FieldSize.address, CommandStatus.ESME_RINVDSTADR),
      };
    case 'generic_nack':
    case 'unbind':
    case 'unbind_resp':
    case 'enquire_link':
    case 'enquire_link_resp':
    case 'cancel_sm_resp':
      return { command, ...header };
  }
}

function readBind(command: BindCommand, header: Header, body: PduBodyReader): Pdu {
  return {
    command,
    ...header,
    systemId: body.cString('system_id', FieldSize.systemId, CommandStatus.ESME_RINVSYSID),
    password: body.cString('password', FieldSize.password, CommandStatus.ESME_RINVPASWD),
    systemType: body.cString('system_type', FieldSize.systemType),
    interfaceVersion: body.uint8('interface_version'),
    addrTon: body.uint8('addr_ton'),
    addrNpi: body.uint8('addr_npi'),
    addressRange: body.cString('address_range', FieldSize.addressRange),
  };
}

function readShortMessageFields(body: PduBodyReader): ShortMessageFields {
  const fields = {
    serviceType: body.cString('service_type', FieldSize.serviceType),
    sourceAddrTon: body.uint8('source_addr_ton'),
    sourceAddrNpi: body.uint8('source_addr_npi'),
    sourceAddr: body.cString('source_addr', FieldSize.address, CommandStatus.ESME_RINVSRCADR),
    destAddrTon: body.uint8('dest_addr_ton'),
    destAddrNpi: body.uint8('dest_addr_npi'),
    destinationAddr: body.cString('destination_addr', FieldSize.address, CommandStatus.ESME_RINVDSTADR),
    esmClass: body.uint8('esm_class'),
    protocolId: body.uint8('protocol_id'),
    priorityFlag: body.uint8('priority_flag'),
    scheduleDeliveryTime: body.cString('schedule_delivery_time', FieldSize.time, CommandStatus.ESME_RINVSCHED),
    validityPeriod: body.cString('validity_period', FieldSize.time, CommandStatus.ESME_RINVEXPIRY),
    registeredDelivery: body.uint8('registered_delivery'),
    replaceIfPresentFlag: body.uint8('replace_if_present_flag'),
    dataCoding: body.uint8('data_coding'),
    smDefaultMsgId: body.uint8('sm_default_msg_id'),
  };
  const smLength = body.uint8('sm_length');
  if (smLength > SHORT_MESSAGE_MAX) throw new MalformedBody(CommandStatus.ESME_RINVMSGLEN, `sm_length ${smLength} is over ${SHORT_MESSAGE_MAX}`);
  return { ...fields, shortMessage: body.octets('short_message', smLength) };
}

function emptyResponse(command: CommandName, header: Header): Pdu | undefined {
  switch (command) {
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      return { command, ...header, systemId: '' };
    case 'submit_sm_resp':
    case 'deliver_sm_resp':
      return { command, ...header, messageId: '' };
    case 'query_sm_resp':
      return { command, ...header, messageId: '', finalDate: '', messageState: 0, errorCode: 0 };
    default:
      return undefined;
  }
}
