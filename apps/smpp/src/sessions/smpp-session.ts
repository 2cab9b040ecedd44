import { Logger } from '@nestjs/common';
import type { Socket } from 'node:net';
import type { SmppBindIdentity } from '@smsq/contracts';
import type { BindType, BoundSession, OutgoingDelivery } from '../binds/bind-registry.js';
import { pdusReceived } from '../metrics/smpp-metrics.js';
import {
  CommandStatus,
  commandStatusName,
  cStringTlv,
  decodePdu,
  encodePdu,
  encodeText,
  formatSmppTime,
  InvalidSmppTime,
  parseSmppTime,
  PduFramer,
  readMessageContent,
  SequenceNumbers,
  SHORT_MESSAGE_MAX,
  SMPP_VERSION_34,
  SmppRefusal,
  TlvTag,
  uint8Tlv,
  type BindPdu,
  type CancelSmPdu,
  type DeliverSmPdu,
  type Pdu,
  type QuerySmPdu,
  type SubmitSmPdu,
  type Tlvs,
} from '../protocol/index.js';
import type { SessionServices, SessionTimings } from './session-services.js';

/** What smsq calls itself in a bind response. */
const SMSC_SYSTEM_ID = 'smsq';

const BIND_TYPE: Record<BindPdu['command'], BindType> = { bind_transmitter: 'transmitter', bind_receiver: 'receiver', bind_transceiver: 'transceiver' };

type Answer = { status: number; fields?: Record<string, unknown>; tlvs?: Tlvs };

interface Pending {
  resolve: (status: number) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One SMPP connection, smsq as the SMSC: bind, then submits, queries and cancels in (its window of)
 * parallel, answered as each completes; receipts and replies go the other way as deliver_sm.
 * Silence is a fault: a peer quiet for `enquireMs` is asked enquire_link, and closed if it stays quiet.
 */
export class SmppSession implements BoundSession {
  private readonly logger = new Logger(SmppSession.name);
  private readonly framer = new PduFramer();
  private readonly sequence = new SequenceNumbers();
  private readonly pending = new Map<number, Pending>();
  private state: 'open' | 'binding' | 'bound' | 'closed' = 'open';
  private bound: { identity: SmppBindIdentity; type: BindType } | undefined;
  private lastHeard = Date.now();
  private enquirySent = false;
  private corked = false;
  private readonly idleTimer: NodeJS.Timeout;

  constructor(
    private readonly socket: Socket,
    private readonly services: SessionServices,
    private readonly timings: SessionTimings,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', (error) => this.logger.debug(`connection from ${socket.remoteAddress}: ${error.message}`));
    socket.on('close', () => this.closed());
    this.idleTimer = setInterval(() => this.checkSilence(), Math.max(250, Math.floor(timings.enquireMs / 4)));
  }

  get identity(): SmppBindIdentity {
    if (!this.bound) throw new Error('not bound');
    return this.bound.identity;
  }

  get type(): BindType {
    if (!this.bound) throw new Error('not bound');
    return this.bound.type;
  }

  deliver(delivery: OutgoingDelivery): Promise<number> {
    if (this.state !== 'bound') return Promise.reject(new Error('the bind is closed'));
    // A receipt's text is GSM throughout (receiptText), so it goes as data_coding 0, where clients look for its fields.
    const encoded = encodeText(delivery.text);
    const tlvs: Tlvs = new Map();
    if (delivery.receipt) {
      tlvs.set(TlvTag.receiptedMessageId, cStringTlv(delivery.receipt.messageId));
      tlvs.set(TlvTag.messageState, uint8Tlv(delivery.receipt.messageState));
    }
    // Too long for short_message: the whole text in message_payload, which every SMPP 3.4 receiver reads.
    const long = encoded.octets.length > SHORT_MESSAGE_MAX;
    if (long) tlvs.set(TlvTag.messagePayload, encoded.octets);
    const source = addressOf(delivery.sourceAddr);
    const destination = addressOf(delivery.destinationAddr);
    const pdu: DeliverSmPdu = {
      command: 'deliver_sm',
      commandStatus: 0,
      sequenceNumber: this.sequence.next(),
      serviceType: '',
      sourceAddrTon: source.ton,
      sourceAddrNpi: source.npi,
      sourceAddr: source.value,
      destAddrTon: destination.ton,
      destAddrNpi: destination.npi,
      destinationAddr: destination.value,
      esmClass: delivery.esmClass,
      protocolId: 0,
      priorityFlag: 0,
      scheduleDeliveryTime: '',
      validityPeriod: '',
      registeredDelivery: 0,
      replaceIfPresentFlag: 0,
      dataCoding: encoded.dataCoding,
      smDefaultMsgId: 0,
      shortMessage: long ? Buffer.alloc(0) : encoded.octets,
      tlvs,
    };
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(pdu.sequenceNumber);
        reject(new Error('no deliver_sm_resp in time'));
      }, this.timings.responseTimeoutMs);
      this.pending.set(pdu.sequenceNumber, { resolve, reject, timer });
      this.write(pdu);
    });
  }

  close(reason: string): void {
    if (this.state === 'closed') return;
    this.logger.log(`closing ${this.describe()}: ${reason}`);
    if (this.state === 'bound') this.write({ command: 'unbind', commandStatus: 0, sequenceNumber: this.sequence.next() });
    this.state = 'closed';
    this.socket.end();
    // A peer that never answers the unbind is not waited for.
    setTimeout(() => this.socket.destroy(), 2_000).unref();
  }

  private received(chunk: Buffer): void {
    this.lastHeard = Date.now();
    this.enquirySent = false;
    const { pdus, broken } = this.framer.push(chunk);
    for (const frame of pdus) this.handleFrame(frame);
    if (broken) {
      this.nack(broken.sequenceNumber, broken.status, 'broken');
      this.logger.warn(`${this.describe()} sent a PDU of command_length ${broken.commandLength}: the stream cannot be read on, closing`);
      this.close('unreadable stream');
    }
  }

  private handleFrame(frame: Buffer): void {
    const decoded = decodePdu(frame);
    if (decoded.kind === 'unknown-command') {
      this.nack(decoded.sequenceNumber, CommandStatus.ESME_RINVCMDID, `0x${decoded.commandId.toString(16)}`);
      return;
    }
    if (decoded.kind === 'malformed') {
      this.logger.debug(`${this.describe()} sent a malformed ${decoded.command}: ${decoded.reason}`);
      if (decoded.command.endsWith('_resp') || decoded.command === 'generic_nack') this.nack(decoded.sequenceNumber, decoded.status, decoded.command);
      else this.answer(decoded.command, decoded.sequenceNumber, { status: decoded.status });
      return;
    }
    this.handle(decoded.pdu).catch((error: unknown) => {
      this.logger.error(`${this.describe()}: ${decoded.pdu.command} not handled: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const { command, sequenceNumber } = decoded.pdu;
      if (!command.endsWith('_resp') && command !== 'generic_nack') this.answer(command, sequenceNumber, { status: CommandStatus.ESME_RSYSERR });
    });
  }

  private async handle(pdu: Pdu): Promise<void> {
    switch (pdu.command) {
      case 'bind_transmitter':
      case 'bind_receiver':
      case 'bind_transceiver':
        return this.answer(pdu.command, pdu.sequenceNumber, await this.bind(pdu));
      case 'enquire_link':
        return this.answer(pdu.command, pdu.sequenceNumber, { status: CommandStatus.ESME_ROK });
      case 'unbind':
        this.answer(pdu.command, pdu.sequenceNumber, { status: CommandStatus.ESME_ROK });
        this.state = 'closed';
        this.socket.end();
        return;
      case 'submit_sm':
        return this.answer(pdu.command, pdu.sequenceNumber, await this.whenTransmitting(() => this.submit(pdu)));
      case 'query_sm':
        return this.answer(pdu.command, pdu.sequenceNumber, await this.whenTransmitting(() => this.query(pdu)));
      case 'cancel_sm':
        return this.answer(pdu.command, pdu.sequenceNumber, await this.whenTransmitting(() => this.cancel(pdu)));
      case 'deliver_sm_resp':
      case 'generic_nack':
        this.settle(pdu.sequenceNumber, pdu.commandStatus === CommandStatus.ESME_ROK && pdu.command === 'generic_nack' ? CommandStatus.ESME_RUNKNOWNERR : pdu.commandStatus);
        return;
      case 'enquire_link_resp':
      case 'unbind_resp':
        return;
      default:
        // A request smsq never takes from an ESME (deliver_sm, a response it never asked for…).
        if (!pdu.command.endsWith('_resp')) this.nack(pdu.sequenceNumber, CommandStatus.ESME_RINVCMDID, pdu.command);
    }
  }

  private async bind(pdu: BindPdu): Promise<Answer> {
    if (this.state !== 'open') return { status: this.state === 'bound' ? CommandStatus.ESME_RALYBND : CommandStatus.ESME_RINVBNDSTS };
    this.state = 'binding';
    let outcome;
    try {
      outcome = await this.services.authenticate(pdu.systemId, pdu.password);
    } catch (error) {
      this.logger.warn(`bind of ${pdu.systemId} not checked: ${(error as Error).message}`);
      outcome = { ok: false as const, status: CommandStatus.ESME_RBINDFAIL };
    }
    if (this.state !== 'binding') return { status: CommandStatus.ESME_RBINDFAIL };
    if (!outcome.ok) {
      this.state = 'open';
      this.logger.log(`bind refused for system_id ${JSON.stringify(pdu.systemId)} from ${this.socket.remoteAddress}: ${commandStatusName(outcome.status)}`);
      return { status: outcome.status };
    }
    this.bound = { identity: outcome.identity, type: BIND_TYPE[pdu.command] };
    this.state = 'bound';
    this.services.registry.add(this);
    this.logger.log(`${this.describe()} bound`);
    if (this.bound.type !== 'transmitter') setImmediate(() => this.services.receiverBound());
    return { status: CommandStatus.ESME_ROK, fields: { systemId: SMSC_SYSTEM_ID }, tlvs: new Map([[TlvTag.scInterfaceVersion, uint8Tlv(SMPP_VERSION_34)]]) };
  }

  private async whenTransmitting(work: () => Promise<Answer>): Promise<Answer> {
    if (this.state !== 'bound' || this.bound?.type === 'receiver') return { status: CommandStatus.ESME_RINVBNDSTS };
    try {
      return await work();
    } catch (error) {
      if (error instanceof SmppRefusal) return { status: error.status };
      this.logger.error(`${this.describe()}: ${(error as Error).stack ?? String(error)}`);
      return { status: CommandStatus.ESME_RSYSERR };
    }
  }

  private async submit(pdu: SubmitSmPdu): Promise<Answer> {
    const identity = this.identity;
    const now = new Date();
    let scheduledAt: Date | undefined;
    let validUntil: Date | undefined;
    try {
      scheduledAt = parseSmppTime(pdu.scheduleDeliveryTime, now);
    } catch (error) {
      if (error instanceof InvalidSmppTime) return { status: CommandStatus.ESME_RINVSCHED };
      throw error;
    }
    try {
      validUntil = parseSmppTime(pdu.validityPeriod, now);
    } catch (error) {
      if (error instanceof InvalidSmppTime) return { status: CommandStatus.ESME_RINVEXPIRY };
      throw error;
    }
    const content = readMessageContent(pdu);
    const message = { identity, sourceAddr: pdu.sourceAddr, destinationAddr: pdu.destinationAddr, internationalDestination: pdu.destAddrTon === 1 };
    const options = { registeredDelivery: pdu.registeredDelivery, priorityFlag: pdu.priorityFlag, scheduledAt, validUntil };
    if (content.kind === 'whole') {
      const outcome = await this.services.submit({ ...message, ...options, text: content.text });
      return outcome.ok ? messageIdAnswer(String(outcome.taskId)) : this.refused(outcome.status, outcome.detail);
    }
    const part = this.services.parts.accept({ ...content.part, clientId: identity.clientId, sourceAddr: pdu.sourceAddr, destinationAddr: pdu.destinationAddr }, options);
    if (part.kind === 'complete') {
      const outcome = await this.services.submit({ ...message, ...part.options, text: part.text });
      if (outcome.ok) this.services.parts.resolve(part.assemblyId, String(outcome.taskId));
      else this.services.parts.reject(part.assemblyId, new SubmitRefused(outcome.status, outcome.detail));
    }
    // Every part is answered once the whole message is queued (or refused): no part goes out alone.
    try {
      return messageIdAnswer(await part.taskId);
    } catch (error) {
      if (error instanceof SmppRefusal) return this.refused(error.status, error.message);
      throw error;
    }
  }

  private refused(status: number, detail: string): Answer {
    this.logger.debug(`${this.describe()}: submit refused (${commandStatusName(status)}): ${detail}`);
    return { status };
  }

  private async query(pdu: QuerySmPdu): Promise<Answer> {
    const outcome = await this.services.query(this.identity.clientId, pdu.messageId);
    if (!outcome.ok) return { status: outcome.status };
    return {
      status: CommandStatus.ESME_ROK,
      fields: { messageId: pdu.messageId, finalDate: outcome.finalDate ? formatSmppTime(outcome.finalDate) : '', messageState: outcome.messageState, errorCode: outcome.errorCode },
    };
  }

  private async cancel(pdu: CancelSmPdu): Promise<Answer> {
    // Cancelling everything sent to a destination (no message_id) is not offered: each task is cancelled by its id.
    if (pdu.messageId === '') return { status: CommandStatus.ESME_RCANCELFAIL };
    return { status: await this.services.cancel(this.identity.clientId, pdu.messageId) };
  }

  private answer(command: Pdu['command'], sequenceNumber: number, answer: Answer): void {
    pdusReceived.inc({ command, status: commandStatusName(answer.status) });
    if (this.socket.destroyed) return;
    const response = `${command}_resp` as Pdu['command'];
    const ok = answer.status === CommandStatus.ESME_ROK;
    const pdu = { command: response, commandStatus: answer.status, sequenceNumber, ...emptyFieldsOf(response), ...(ok ? answer.fields : {}), ...(ok && answer.tlvs ? { tlvs: answer.tlvs } : {}) };
    this.write(pdu as Pdu);
  }

  private nack(sequenceNumber: number, status: number, what: string): void {
    pdusReceived.inc({ command: 'generic_nack', status: commandStatusName(status) });
    this.logger.debug(`${this.describe()}: generic_nack ${commandStatusName(status)} for ${what}`);
    this.write({ command: 'generic_nack', commandStatus: status, sequenceNumber });
  }

  private write(pdu: Pdu): void {
    if (this.socket.destroyed || !this.socket.writable) return;
    // The answers of one tick (a window's submits come back together) leave in one write.
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(encodePdu(pdu));
  }

  private settle(sequenceNumber: number, status: number): void {
    const waiting = this.pending.get(sequenceNumber);
    if (!waiting) return;
    this.pending.delete(sequenceNumber);
    clearTimeout(waiting.timer);
    waiting.resolve(status);
  }

  private checkSilence(): void {
    if (this.state === 'closed') return;
    const quietMs = Date.now() - this.lastHeard;
    if (quietMs < this.timings.enquireMs) return;
    if (this.state !== 'bound') {
      this.close('no bind in time');
      return;
    }
    if (!this.enquirySent) {
      this.enquirySent = true;
      this.write({ command: 'enquire_link', commandStatus: 0, sequenceNumber: this.sequence.next() });
      return;
    }
    if (quietMs >= 2 * this.timings.enquireMs) this.close(`silent for ${Math.round(quietMs / 1000)} s`);
  }

  private closed(): void {
    this.state = 'closed';
    clearInterval(this.idleTimer);
    if (this.bound) this.services.registry.remove(this);
    for (const [sequence, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error('the bind closed before answering'));
      this.pending.delete(sequence);
    }
  }

  private describe(): string {
    return this.bound ? `${this.bound.type} bind of ${this.bound.identity.systemId} (client ${this.bound.identity.clientId})` : `connection from ${this.socket.remoteAddress}`;
  }
}

/** The whole message was refused: every one of its parts is answered with this. */
class SubmitRefused extends SmppRefusal {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function messageIdAnswer(messageId: string): Answer {
  return { status: CommandStatus.ESME_ROK, fields: { messageId } };
}

/** An address as deliver_sm writes it: international (TON 1, ISDN) for a number, alphanumeric (TON 5) otherwise. */
function addressOf(address: string): { ton: number; npi: number; value: string } {
  const number = /^\+?\d+$/.test(address);
  return { ton: address === '' ? 0 : number ? 1 : 5, npi: number ? 1 : 0, value: number ? address.replace(/^\+/, '') : address.slice(0, 20) };
}

/** A response's mandatory fields, empty: what an error response carries (and an OK one before its own fields). */
function emptyFieldsOf(response: Pdu['command']): Record<string, unknown> {
  switch (response) {
    case 'bind_transmitter_resp':
    case 'bind_receiver_resp':
    case 'bind_transceiver_resp':
      return { systemId: SMSC_SYSTEM_ID };
    case 'submit_sm_resp':
      return { messageId: '' };
    case 'query_sm_resp':
      return { messageId: '', finalDate: '', messageState: 0, errorCode: 0 };
    default:
      return {};
  }
}
