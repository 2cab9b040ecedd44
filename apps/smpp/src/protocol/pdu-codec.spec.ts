import { describe, expect, it } from 'vitest';
import { CommandStatus } from './command-status.js';
import type { DecodedPdu, Pdu, SubmitSmPdu } from './pdu.js';
import { decodePdu } from './pdu-decoder.js';
import { encodePdu } from './pdu-encoder.js';
import { cStringTlv, networkErrorCodeTlv, TlvTag, uint16Tlv, uint8Tlv } from './tlv.js';

function submitSm(overrides: Partial<SubmitSmPdu> = {}): SubmitSmPdu {
  return {
    command: 'submit_sm',
    commandStatus: 0,
    sequenceNumber: 7,
    serviceType: '',
    sourceAddrTon: 1,
    sourceAddrNpi: 1,
    sourceAddr: '38164000111',
    destAddrTon: 1,
    destAddrNpi: 1,
    destinationAddr: '38164123456',
    esmClass: 0,
    protocolId: 0,
    priorityFlag: 1,
    scheduleDeliveryTime: '',
    validityPeriod: '000001000000000R',
    registeredDelivery: 1,
    replaceIfPresentFlag: 0,
    dataCoding: 0,
    smDefaultMsgId: 0,
    shortMessage: Buffer.from('Hello'),
    tlvs: new Map(),
    ...overrides,
  };
}

function decoded(pdu: DecodedPdu): Pdu {
  if (pdu.kind !== 'pdu') throw new Error(`expected a PDU, got ${JSON.stringify(pdu)}`);
  return pdu.pdu;
}

function header(commandId: number, sequenceNumber: number, body: Buffer, commandStatus = 0): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(16 + body.length, 0);
  head.writeUInt32BE(commandId, 4);
  head.writeUInt32BE(commandStatus, 8);
  head.writeUInt32BE(sequenceNumber, 12);
  return Buffer.concat([head, body]);
}

describe(encodePdu.name, () => {
  it('writes enquire_link as the 16-octet header of SMPP 3.4', () => {
    expect(encodePdu({ command: 'enquire_link', commandStatus: 0, sequenceNumber: 1 }).toString('hex')).toBe('00000010000000150000000000000001');
  });

  it('writes a bind_transceiver_resp with sc_interface_version', () => {
    const bytes = encodePdu({ command: 'bind_transceiver_resp', commandStatus: 0, sequenceNumber: 2, systemId: 'smsq', tlvs: new Map([[TlvTag.scInterfaceVersion, uint8Tlv(0x34)]]) });

    expect(bytes.toString('hex')).toBe('0000001a800000090000000000000002' + '736d737100' + '0210000134');
  });

  it('refuses to write a field longer than SMPP allows', () => {
    expect(() => encodePdu({ command: 'submit_sm_resp', commandStatus: 0, sequenceNumber: 1, messageId: 'x'.repeat(65) })).toThrow(RangeError);
    expect(() => encodePdu(submitSm({ shortMessage: Buffer.alloc(255) }))).toThrow(RangeError);
  });
});

describe(decodePdu.name, () => {
  const roundTrips: Array<[string, Pdu]> = [
    ['bind_transmitter', { command: 'bind_transmitter', commandStatus: 0, sequenceNumber: 1, systemId: 'kannel01', password: 'Ab3dE6gH', systemType: 'VMA', interfaceVersion: 0x34, addrTon: 0, addrNpi: 0, addressRange: '' }],
    ['bind_receiver', { command: 'bind_receiver', commandStatus: 0, sequenceNumber: 2, systemId: 'x'.repeat(15), password: 'y'.repeat(8), systemType: '', interfaceVersion: 0x34, addrTon: 1, addrNpi: 1, addressRange: '^381' }],
    ['bind_transceiver_resp', { command: 'bind_transceiver_resp', commandStatus: 0, sequenceNumber: 3, systemId: 'smsq', tlvs: new Map([[TlvTag.scInterfaceVersion, uint8Tlv(0x34)]]) }],
    ['refused bind_transmitter_resp', { command: 'bind_transmitter_resp', commandStatus: CommandStatus.ESME_RINVPASWD, sequenceNumber: 4, systemId: 'smsq' }],
    [
      'submit_sm with sar_ parameters',
      submitSm({
        tlvs: new Map([
          [TlvTag.sarMsgRefNum, uint16Tlv(0x1234)],
          [TlvTag.sarTotalSegments, uint8Tlv(3)],
          [TlvTag.sarSegmentSeqnum, uint8Tlv(2)],
        ]),
      }),
    ],
    ['submit_sm_resp', { command: 'submit_sm_resp', commandStatus: 0, sequenceNumber: 7, messageId: '0190b4a4-6c7e-7000-8000-000000000001' }],
    ['refused submit_sm_resp', { command: 'submit_sm_resp', commandStatus: CommandStatus.ESME_RTHROTTLED, sequenceNumber: 8, messageId: '' }],
    [
      'deliver_sm receipt',
      {
        ...submitSm({ sequenceNumber: 9, esmClass: 0x04, validityPeriod: '', shortMessage: Buffer.from('id:42 sub:001 dlvrd:001') }),
        command: 'deliver_sm',
        tlvs: new Map([
          [TlvTag.receiptedMessageId, cStringTlv('42')],
          [TlvTag.messageState, uint8Tlv(2)],
          [TlvTag.networkErrorCode, networkErrorCodeTlv(1, 0)],
        ]),
      },
    ],
    ['deliver_sm_resp', { command: 'deliver_sm_resp', commandStatus: 0, sequenceNumber: 9, messageId: '' }],
    ['query_sm', { command: 'query_sm', commandStatus: 0, sequenceNumber: 10, messageId: '42', sourceAddrTon: 1, sourceAddrNpi: 1, sourceAddr: '38164000111' }],
    ['query_sm_resp', { command: 'query_sm_resp', commandStatus: 0, sequenceNumber: 10, messageId: '42', finalDate: '260501120000000+', messageState: 2, errorCode: 0 }],
    [
      'cancel_sm',
      { command: 'cancel_sm', commandStatus: 0, sequenceNumber: 11, serviceType: '', messageId: '42', sourceAddrTon: 1, sourceAddrNpi: 1, sourceAddr: '38164000111', destAddrTon: 1, destAddrNpi: 1, destinationAddr: '38164123456' },
    ],
    ['cancel_sm_resp', { command: 'cancel_sm_resp', commandStatus: CommandStatus.ESME_RCANCELFAIL, sequenceNumber: 11 }],
    ['unbind', { command: 'unbind', commandStatus: 0, sequenceNumber: 12 }],
    ['unbind_resp', { command: 'unbind_resp', commandStatus: 0, sequenceNumber: 12 }],
    ['enquire_link_resp', { command: 'enquire_link_resp', commandStatus: 0, sequenceNumber: 0x7fffffff }],
    ['generic_nack', { command: 'generic_nack', commandStatus: CommandStatus.ESME_RINVCMDID, sequenceNumber: 13 }],
  ];

  it.each(roundTrips)('reads back %s as it was written', (_name, pdu) => {
    expect(decodePdu(encodePdu(pdu))).toEqual({ kind: 'pdu', pdu: { tlvs: new Map(), ...pdu } });
  });

  it('reads a refusing response that left out its body', () => {
    const pdu = decoded(decodePdu(header(0x80000004, 5, Buffer.alloc(0), CommandStatus.ESME_RSUBMITFAIL)));

    expect(pdu).toMatchObject({ command: 'submit_sm_resp', commandStatus: CommandStatus.ESME_RSUBMITFAIL, sequenceNumber: 5, messageId: '' });
  });

  it('names an unknown command with its id and sequence number, for generic_nack ESME_RINVCMDID', () => {
    expect(decodePdu(header(0x00000103, 21, Buffer.alloc(0)))).toEqual({ kind: 'unknown-command', commandId: 0x103, sequenceNumber: 21 });
  });

  it('refuses a short_message running past the end of the PDU (sm_length too large)', () => {
    const full = encodePdu(submitSm());
    const truncated = Buffer.from(full.subarray(0, full.length - 2));
    truncated.writeUInt32BE(truncated.length, 0);

    expect(decodePdu(truncated)).toMatchObject({ kind: 'malformed', command: 'submit_sm', commandId: 4, sequenceNumber: 7, status: CommandStatus.ESME_RINVCMDLEN });
  });

  it('refuses a C-string without its NUL', () => {
    const body = Buffer.from('kannel01\0secret\0VMA', 'latin1');

    expect(decodePdu(header(0x00000002, 3, body))).toMatchObject({ kind: 'malformed', command: 'bind_transmitter', sequenceNumber: 3, status: CommandStatus.ESME_RINVCMDLEN, reason: 'system_type has no terminating NUL' });
  });

  it('refuses an over-long system_id with ESME_RINVSYSID and an over-long password with ESME_RINVPASWD', () => {
    const longSystemId = Buffer.from(`${'s'.repeat(16)}\0pw\0\0\x34\0\0\0`, 'latin1');
    const longPassword = Buffer.from(`smsq\0${'p'.repeat(9)}\0\0\x34\0\0\0`, 'latin1');

    expect(decodePdu(header(0x00000009, 1, longSystemId))).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVSYSID });
    expect(decodePdu(header(0x00000009, 1, longPassword))).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVPASWD });
  });

  it('refuses an over-long destination_addr with ESME_RINVDSTADR', () => {
    const bytes = encodePdu(submitSm());
    const tooLong = Buffer.from(bytes.toString('latin1').replace('38164123456\0', `${'9'.repeat(21)}\0`), 'latin1');
    tooLong.writeUInt32BE(tooLong.length, 0);

    expect(decodePdu(tooLong)).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVDSTADR });
  });

  it('refuses a truncated optional parameter with ESME_RINVOPTPARSTREAM', () => {
    const bytes = encodePdu(submitSm({ tlvs: new Map([[TlvTag.messagePayload, Buffer.from('payload')]]) }));
    const cut = Buffer.from(bytes.subarray(0, bytes.length - 3));
    cut.writeUInt32BE(cut.length, 0);
    const halfHeader = Buffer.concat([encodePdu(submitSm()), Buffer.of(0x04, 0x24)]);
    halfHeader.writeUInt32BE(halfHeader.length, 0);

    expect(decodePdu(cut)).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVOPTPARSTREAM });
    expect(decodePdu(halfHeader)).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVOPTPARSTREAM });
  });

  it('refuses a known optional parameter of the wrong length with ESME_RINVPARLEN', () => {
    const bytes = encodePdu(submitSm({ tlvs: new Map([[TlvTag.sarMsgRefNum, Buffer.of(1, 2, 3)]]) }));

    expect(decodePdu(bytes)).toMatchObject({ kind: 'malformed', status: CommandStatus.ESME_RINVPARLEN });
  });

  it('keeps optional parameters it does not know, by tag', () => {
    const pdu = decoded(decodePdu(encodePdu(submitSm({ tlvs: new Map([[0x1401, Buffer.from('vendor')]]) }))));

    expect(pdu.tlvs?.get(0x1401)?.toString()).toBe('vendor');
  });

  it('insists on a frame exactly as long as its command_length', () => {
    const bytes = encodePdu({ command: 'enquire_link', commandStatus: 0, sequenceNumber: 1 });

    expect(() => decodePdu(Buffer.concat([bytes, Buffer.of(0)]))).toThrow(RangeError);
    expect(() => decodePdu(bytes.subarray(0, 12))).toThrow(RangeError);
  });
});
