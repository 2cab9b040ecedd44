import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { readMessageContent } from './long-message.js';
import type { DeliverSmPdu, Pdu } from './pdu.js';
import { decodePdu } from './pdu-decoder.js';
import { encodePdu } from './pdu-encoder.js';
import { receiptText } from './receipt-text.js';
import { DataCoding, encodeText } from './text-coding.js';
import { cStringTlv, readUint16Tlv, TlvTag, uint8Tlv } from './tlv.js';

function decoded(bytes: Buffer): Pdu {
  const result = decodePdu(bytes);
  if (result.kind !== 'pdu') throw new Error(`expected a PDU, got ${JSON.stringify(result)}`);
  return result.pdu;
}

// The npm smpp package (node-smpp) was written by others against the same specification: what one
// writes, the other must read the same.
describe('PDU codec against the smpp package', () => {
  it('reads a submit_sm the smpp package wrote: fields, GSM text with extension characters, sar_ numbering', () => {
    const theirs = new smpp.PDU('submit_sm', {
      sequence_number: 77,
      source_addr_ton: 5,
      source_addr: 'Shop',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: '38164123456',
      registered_delivery: 1,
      priority_flag: 2,
      validity_period: '000001000000000R',
      data_coding: 0,
      short_message: 'Price: 5€ [net]',
      sar_msg_ref_num: 0x0102,
      sar_total_segments: 2,
      sar_segment_seqnum: 1,
    }).toBuffer();

    const pdu = decoded(theirs);

    expect(pdu).toMatchObject({
      command: 'submit_sm',
      sequenceNumber: 77,
      sourceAddrTon: 5,
      sourceAddr: 'Shop',
      destAddrTon: 1,
      destAddrNpi: 1,
      destinationAddr: '38164123456',
      registeredDelivery: 1,
      priorityFlag: 2,
      validityPeriod: '000001000000000R',
      dataCoding: 0,
    });
    if (pdu.command !== 'submit_sm') throw new Error('not a submit_sm');
    expect(readUint16Tlv(pdu.tlvs, TlvTag.sarMsgRefNum)).toBe(0x0102);
    const content = readMessageContent(pdu);
    expect(content).toMatchObject({ kind: 'part', part: { reference: 0x0102, total: 2, seq: 1 } });
    expect(readMessageContent({ ...pdu, tlvs: new Map() })).toEqual({ kind: 'whole', text: 'Price: 5€ [net]' });
  });

  it('reads a UCS-2 submit_sm in message_payload the smpp package wrote', () => {
    const theirs = new smpp.PDU('submit_sm', { sequence_number: 78, destination_addr: '38164123456', data_coding: DataCoding.ucs2, message_payload: 'Ђорђе 😀 '.repeat(30) }).toBuffer();

    const pdu = decoded(theirs);

    if (pdu.command !== 'submit_sm') throw new Error('not a submit_sm');
    expect(pdu.shortMessage.length).toBe(0);
    expect(readMessageContent(pdu)).toEqual({ kind: 'whole', text: 'Ђорђе 😀 '.repeat(30) });
  });

  it('writes a deliver_sm receipt and a UCS-2 reply the smpp package reads as sent', () => {
    const text = receiptText({ messageId: 'task-9', stat: 'DELIVRD', submittedAt: new Date('2026-05-01T10:00:00Z'), doneAt: new Date('2026-05-01T10:01:00Z'), error: 0, text: 'Hello' });
    const receipt: DeliverSmPdu = {
      command: 'deliver_sm',
      commandStatus: 0,
      sequenceNumber: 12,
      serviceType: '',
      sourceAddrTon: 1,
      sourceAddrNpi: 1,
      sourceAddr: '38164123456',
      destAddrTon: 5,
      destAddrNpi: 0,
      destinationAddr: 'Shop',
      esmClass: 0x04,
      protocolId: 0,
      priorityFlag: 0,
      scheduleDeliveryTime: '',
      validityPeriod: '',
      registeredDelivery: 0,
      replaceIfPresentFlag: 0,
      dataCoding: DataCoding.gsm,
      smDefaultMsgId: 0,
      shortMessage: encodeText(text).octets,
      tlvs: new Map([
        [TlvTag.receiptedMessageId, cStringTlv('task-9')],
        [TlvTag.messageState, uint8Tlv(2)],
      ]),
    };
    const reply = encodeText('Да, хвала 😀');

    const theirReceipt = new smpp.PDU(encodePdu(receipt));
    const theirReply = new smpp.PDU(encodePdu({ ...receipt, sequenceNumber: 13, esmClass: 0, dataCoding: reply.dataCoding, shortMessage: reply.octets, tlvs: new Map() }));

    expect(theirReceipt).toMatchObject({
      command: 'deliver_sm',
      sequence_number: 12,
      source_addr: '38164123456',
      destination_addr: 'Shop',
      esm_class: 0x04,
      short_message: { message: text },
      receipted_message_id: 'task-9',
      message_state: 2,
    });
    expect(theirReply).toMatchObject({ command: 'deliver_sm', data_coding: DataCoding.ucs2, short_message: { message: 'Да, хвала 😀' } });
  });

  it('reads the smpp package bind_transceiver, and its reading of our bind_transceiver_resp', () => {
    const bind = decoded(new smpp.PDU('bind_transceiver', { sequence_number: 1, system_id: 'kannel01', password: 'Ab3dE6gH', system_type: 'VMA' }).toBuffer());
    const resp = new smpp.PDU(encodePdu({ command: 'bind_transceiver_resp', commandStatus: 0, sequenceNumber: 1, systemId: 'smsq', tlvs: new Map([[TlvTag.scInterfaceVersion, uint8Tlv(0x34)]]) }));

    expect(bind).toMatchObject({ command: 'bind_transceiver', systemId: 'kannel01', password: 'Ab3dE6gH', systemType: 'VMA', interfaceVersion: 0x50 });
    expect(resp).toMatchObject({ command: 'bind_transceiver_resp', command_status: 0, system_id: 'smsq', sc_interface_version: 0x34 });
  });
});
