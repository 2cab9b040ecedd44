import smpp from 'smpp';

/** A PDU as the `smpp` package reads it: its fields by their SMPP names. */
export type SmppPdu = Record<string, any> & { command: string; command_status: number; sequence_number: number };

export type BindType = 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver';

/**
 * An SMPP client this project did not write (the `smpp` package, node-smpp), for what Kannel
 * cannot be made to do: several binds, a peer that stays silent, binding later, replicas. Each
 * deliver_sm it receives is kept and answered ESME_ROK (or `deliveryStatus`), as an ESME does.
 */
export class SmppTestClient {
  readonly deliveries: SmppPdu[] = [];
  /** The command_status this client answers deliver_sm with. */
  deliveryStatus = 0;
  /** Whether it answers the server's enquire_link (a silent peer does not). */
  answersEnquiries = true;
  readonly closed: Promise<void>;
  private readonly session: any;

  private constructor(session: any) {
    this.session = session;
    this.closed = new Promise((resolve) => session.on('close', () => resolve()));
    session.on('error', () => undefined);
    session.on('deliver_sm', (pdu: SmppPdu) => {
      this.deliveries.push(pdu);
      session.send(new smpp.PDU('deliver_sm_resp', { sequence_number: pdu.sequence_number, command_status: this.deliveryStatus }));
    });
    session.on('enquire_link', (pdu: SmppPdu) => {
      if (this.answersEnquiries) session.send(pdu.response());
    });
    session.on('unbind', (pdu: SmppPdu) => {
      session.send(pdu.response());
      session.close();
    });
  }

  /** With `tls`, SMPP over TLS (the server's certificate is not checked: the tests' own is self-signed). */
  static connect(port: number, { tls = false }: { tls?: boolean } = {}): Promise<SmppTestClient> {
    return new Promise((resolve, reject) => {
      const session = smpp.connect({ url: `${tls ? 'ssmpp' : 'smpp'}://127.0.0.1:${port}` });
      session.once(tls ? 'secureConnect' : 'connect', () => resolve(new SmppTestClient(session)));
      session.once('error', reject);
    });
  }

  /** Connects and binds; rejects unless the bind answers ESME_ROK. */
  static async bound(port: number, systemId: string, password: string, type: BindType = 'bind_transceiver', options: { tls?: boolean } = {}): Promise<SmppTestClient> {
    const client = await SmppTestClient.connect(port, options);
    const answer = await client.request(type, { system_id: systemId, password });
    if (answer.command_status !== 0) throw new Error(`${type} answered 0x${answer.command_status.toString(16)}`);
    return client;
  }

  /** Sends a request and answers its response (or the generic_nack that stands for it). */
  request(command: string, fields: Record<string, unknown> = {}, timeoutMs = 15_000): Promise<SmppPdu> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${command} in ${timeoutMs} ms`)), timeoutMs);
      const pdu = new smpp.PDU(command, fields);
      this.session.send(pdu, (answer: SmppPdu) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  /** Writes octets as they are, for PDUs no client library would send. */
  writeRaw(octets: Buffer): void {
    this.session.socket.write(octets);
  }

  /** The next PDU of `command` that arrives (answers included), for raw requests the library cannot pair. */
  next(command: string, timeoutMs = 10_000): Promise<SmppPdu> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${command} in ${timeoutMs} ms`)), timeoutMs);
      this.session.once(command, (pdu: SmppPdu) => {
        clearTimeout(timer);
        resolve(pdu);
      });
    });
  }

  /** The text of a received deliver_sm, decoded by the library. */
  static textOf(pdu: SmppPdu): string {
    const carried = pdu['message_payload'] ?? pdu['short_message'];
    return typeof carried === 'string' ? carried : (carried?.message ?? '');
  }

  close(): void {
    this.session.close();
  }

  destroy(): void {
    this.session.destroy();
  }
}
