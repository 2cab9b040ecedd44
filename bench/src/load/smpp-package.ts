import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/** A PDU as the `smpp` package reads it: its fields by their SMPP names. */
export interface SmppPdu {
  command: string;
  command_status: number;
  sequence_number: number;
  [field: string]: unknown;
  response(fields?: Record<string, unknown>): SmppPdu;
}

/** The few calls of the package's client session the bench makes. */
export interface SmppClientSession {
  readonly socket: Socket;
  send(pdu: SmppPdu, onResponse?: (answer: SmppPdu) => void): boolean;
  on(event: 'connect' | 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'enquire_link' | 'unbind', listener: (pdu: SmppPdu) => void): this;
  once(event: 'connect' | 'close', listener: () => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
  removeListener(event: 'error', listener: (error: Error) => void): this;
  close(): void;
  destroy(): void;
}

interface SmppPackage {
  connect(options: { url: string }): SmppClientSession;
  PDU: new (command: string, fields?: Record<string, unknown>) => SmppPdu;
}

// The `smpp` package (node-smpp, an SMPP client this project did not write) ships no types, and
// apps/smpp's specs declare the module for themselves; required here and typed for the bench's calls only.
export const smpp = createRequire(import.meta.url)('smpp') as SmppPackage;
