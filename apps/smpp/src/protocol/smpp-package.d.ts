// The npm `smpp` package ships no types; specs use it as an independent SMPP implementation.
declare module 'smpp' {
  interface Pdu {
    toBuffer(): Buffer;
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
  }
  interface PduConstructor {
    new (command: string | Buffer, options?: Record<string, unknown>): Pdu;
    fromBuffer(buffer: Buffer): Pdu | false;
  }
  const smpp: { PDU: PduConstructor };
  export default smpp;
}
