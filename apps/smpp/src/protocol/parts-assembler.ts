import { createHash, randomUUID } from 'node:crypto';
import type { MessagePart } from './long-message.js';
import { PartRefused } from './part-refused.js';
import { decodeText } from './text-coding.js';

/** A part as the session read it, with whose message it is. */
export interface IncomingPart extends MessagePart {
  clientId: number;
  sourceAddr: string;
  destinationAddr: string;
}

/**
 * What became of an accepted part. Every part of one message shares `assemblyId` and `taskId`: the
 * promise resolves with the task id once the whole message became a task, or rejects with the
 * refusal of the whole message (a part missing past the timeout, or the task refused). The part
 * that completes the message comes back `complete` with the text: the caller creates the task, then
 * calls `resolve` or `reject`, which answers every part. A caller can so answer each part's
 * submit_sm_resp with the task id when it is known (await `taskId`), or at once with `assemblyId`
 * if it keeps that id as another name of the task.
 */
export type PartOutcome =
  | { kind: 'waiting'; assemblyId: string; taskId: Promise<string> }
  | { kind: 'complete'; assemblyId: string; text: string; taskId: Promise<string> }
  /** The same part again (a retransmission): answer as the first copy is answered. */
  | { kind: 'repeated'; assemblyId: string; taskId: Promise<string> };

export interface OpenMessageView {
  assemblyId: string;
  clientId: number;
  sourceAddr: string;
  destinationAddr: string;
  reference: number;
  total: number;
  /** Part numbers received so far, ascending. */
  received: number[];
  since: Date;
}

export interface PartsAssemblerOptions {
  /** How long the parts of a message may take to arrive, from its first part. */
  timeoutMs?: number;
  maxOpenMessages?: number;
  maxOpenMessagesPerClient?: number;
  /** Text octets held in open messages, all clients together. */
  maxBufferedOctets?: number;
  /** How many settled or expired messages are remembered to answer retransmitted and late parts. */
  maxRemembered?: number;
  /** Told of a message dropped because a part did not arrive in time. */
  onExpired?: (message: OpenMessageView) => void;
  newAssemblyId?: () => string;
}

interface Deferred {
  promise: Promise<string>;
  resolve: (taskId: string) => void;
  reject: (error: Error) => void;
}

interface StoredPart {
  dataCoding: number;
  userData: Buffer;
  fingerprint: string;
}

interface OpenMessage {
  state: 'open' | 'completing';
  view: Omit<OpenMessageView, 'received'>;
  parts: Map<number, StoredPart>;
  taskId: Deferred;
  timer?: ReturnType<typeof setTimeout>;
}

const MAX_PARTS = 255;

/** A settled or expired message, kept a while so its parts arriving again get the same answer. */
interface RememberedMessage {
  state: 'settled' | 'expired';
  assemblyId: string;
  total: number;
  fingerprints: Map<number, string>;
  taskId: Promise<string>;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Joins the parts of long messages. A message is known by client, source, destination and reference;
 * it becomes whole once parts 1..total have arrived, in any order, and is refused whole when they do
 * not all arrive within the timeout: no part of it is ever sent alone.
 */
export class PartsAssembler {
  private readonly timeoutMs: number;
  private readonly maxOpenMessages: number;
  private readonly maxOpenMessagesPerClient: number;
  private readonly maxBufferedOctets: number;
  private readonly maxRemembered: number;
  private readonly onExpired: (message: OpenMessageView) => void;
  private readonly newAssemblyId: () => string;

  private readonly open = new Map<string, OpenMessage>();
  private readonly byAssemblyId = new Map<string, string>();
  private readonly remembered = new Map<string, RememberedMessage>();
  private readonly openPerClient = new Map<number, number>();
  private bufferedOctets = 0;

  constructor(options: PartsAssemblerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxOpenMessages = options.maxOpenMessages ?? 1_000;
    this.maxOpenMessagesPerClient = options.maxOpenMessagesPerClient ?? 100;
    this.maxBufferedOctets = options.maxBufferedOctets ?? 16 * 1024 * 1024;
    this.maxRemembered = options.maxRemembered ?? 10_000;
    this.onExpired = options.onExpired ?? (() => undefined);
    this.newAssemblyId = options.newAssemblyId ?? randomUUID;
  }

  /**
   * Takes one part. Throws PartRefused for a part that cannot belong to its message, and the text
   * coding's refusal for octets that are no text.
   */
  accept(part: IncomingPart): PartOutcome {
    if (!Number.isInteger(part.total) || !Number.isInteger(part.seq) || part.total < 1 || part.total > MAX_PARTS || part.seq < 1 || part.seq > part.total) {
      throw new PartRefused('invalid-numbering', `part ${part.seq} of ${part.total} cannot be`);
    }
    decodeText(part.userData, part.dataCoding);
    const key = keyOf(part);
    const fingerprint = fingerprintOf(part);

    const remembered = this.remembered.get(key);
    if (remembered) {
      const earlier = remembered.fingerprints.get(part.seq);
      if (earlier === fingerprint) return { kind: 'repeated', assemblyId: remembered.assemblyId, taskId: remembered.taskId };
      if (remembered.state === 'expired' && earlier === undefined && part.total === remembered.total) {
        throw new PartRefused('incomplete', `part ${part.seq} of ${part.total} came after its message timed out`);
      }
      // Anything else is the client reusing the reference for a new message.
      this.forget(key);
    }

    const message = this.open.get(key) ?? this.start(key, part);
    if (message.view.total !== part.total) {
      throw new PartRefused('total-mismatch', `part ${part.seq} says ${part.total} parts; its message has ${message.view.total}`);
    }
    const earlier = message.parts.get(part.seq);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) throw new PartRefused('conflicting-duplicate', `part ${part.seq} of ${part.total} arrived twice with different text`);
      return { kind: 'repeated', assemblyId: message.view.assemblyId, taskId: message.taskId.promise };
    }
    if (this.bufferedOctets + part.userData.length > this.maxBufferedOctets) {
      if (message.parts.size === 0) this.drop(key, message);
      throw new PartRefused('too-many-open', 'too much long-message text is waiting for its parts');
    }

    message.parts.set(part.seq, { dataCoding: part.dataCoding, userData: Buffer.from(part.userData), fingerprint });
    this.bufferedOctets += part.userData.length;
    if (message.parts.size < part.total) return { kind: 'waiting', assemblyId: message.view.assemblyId, taskId: message.taskId.promise };

    message.state = 'completing';
    clearTimeout(message.timer);
    return { kind: 'complete', assemblyId: message.view.assemblyId, text: textOf(message.parts), taskId: message.taskId.promise };
  }

  /** The whole message became this task: every part's `taskId` resolves with it. */
  resolve(assemblyId: string, taskId: string): void {
    this.settle(assemblyId, (message) => message.taskId.resolve(taskId));
  }

  /** The whole message was refused: every part's `taskId` rejects with this error. */
  reject(assemblyId: string, error: Error): void {
    this.settle(assemblyId, (message) => message.taskId.reject(error));
  }

  openMessages(): OpenMessageView[] {
    return [...this.open.values()].map(viewOf);
  }

  /** Refuses every message still waiting and stops all timers. */
  close(): void {
    for (const [key, message] of this.open) {
      this.drop(key, message);
      message.taskId.reject(new PartRefused('closed', 'the service stopped before the message was whole'));
    }
    for (const key of [...this.remembered.keys()]) this.forget(key);
  }

  private start(key: string, part: IncomingPart): OpenMessage {
    const perClient = this.openPerClient.get(part.clientId) ?? 0;
    if (this.open.size >= this.maxOpenMessages || perClient >= this.maxOpenMessagesPerClient) {
      throw new PartRefused('too-many-open', 'too many long messages are waiting for their parts');
    }
    const { clientId, sourceAddr, destinationAddr, reference, total } = part;
    const message: OpenMessage = {
      state: 'open',
      view: { assemblyId: this.newAssemblyId(), clientId, sourceAddr, destinationAddr, reference, total, since: new Date() },
      parts: new Map(),
      taskId: deferred(),
    };
    message.timer = unref(setTimeout(() => this.expire(key, message), this.timeoutMs));
    this.open.set(key, message);
    this.byAssemblyId.set(message.view.assemblyId, key);
    this.openPerClient.set(clientId, perClient + 1);
    return message;
  }

  private expire(key: string, message: OpenMessage): void {
    if (this.open.get(key) !== message || message.state !== 'open') return;
    const view = viewOf(message);
    this.drop(key, message);
    message.taskId.reject(new PartRefused('incomplete', `parts ${missingOf(view).join(', ')} of ${view.total} did not arrive within ${this.timeoutMs} ms`));
    this.remember(key, message, 'expired');
    this.onExpired(view);
  }

  private settle(assemblyId: string, answer: (message: OpenMessage) => void): void {
    const key = this.byAssemblyId.get(assemblyId);
    const message = key === undefined ? undefined : this.open.get(key);
    if (key === undefined || !message || message.state !== 'completing') throw new Error(`no message ${assemblyId} is waiting to be settled`);
    this.drop(key, message);
    answer(message);
    this.remember(key, message, 'settled');
  }

  private drop(key: string, message: OpenMessage): void {
    clearTimeout(message.timer);
    this.open.delete(key);
    this.byAssemblyId.delete(message.view.assemblyId);
    const perClient = (this.openPerClient.get(message.view.clientId) ?? 1) - 1;
    if (perClient > 0) this.openPerClient.set(message.view.clientId, perClient);
    else this.openPerClient.delete(message.view.clientId);
    for (const part of message.parts.values()) this.bufferedOctets -= part.userData.length;
  }

  private remember(key: string, message: OpenMessage, state: RememberedMessage['state']): void {
    if (this.remembered.size >= this.maxRemembered) this.forget(this.remembered.keys().next().value!);
    this.remembered.set(key, {
      state,
      assemblyId: message.view.assemblyId,
      total: message.view.total,
      fingerprints: new Map([...message.parts].map(([seq, part]) => [seq, part.fingerprint])),
      taskId: message.taskId.promise,
      timer: unref(setTimeout(() => this.forget(key), this.timeoutMs)),
    });
  }

  private forget(key: string): void {
    const remembered = this.remembered.get(key);
    if (!remembered) return;
    clearTimeout(remembered.timer);
    this.remembered.delete(key);
  }
}

function keyOf(part: IncomingPart): string {
  return JSON.stringify([part.clientId, part.sourceAddr, part.destinationAddr, part.reference]);
}

function fingerprintOf(part: Pick<MessagePart, 'dataCoding' | 'userData'>): string {
  return createHash('sha256').update(Buffer.of(part.dataCoding)).update(part.userData).digest('base64');
}

function viewOf(message: OpenMessage): OpenMessageView {
  return { ...message.view, received: [...message.parts.keys()].sort((a, b) => a - b) };
}

function missingOf(view: OpenMessageView): number[] {
  return Array.from({ length: view.total }, (_, index) => index + 1).filter((seq) => !view.received.includes(seq));
}

/** Consecutive parts of one coding are decoded together, so a character split across parts comes out whole. */
function textOf(parts: Map<number, StoredPart>): string {
  const ordered = [...parts].sort(([a], [b]) => a - b).map(([, part]) => part);
  let text = '';
  for (let start = 0; start < ordered.length; ) {
    let end = start + 1;
    while (end < ordered.length && ordered[end]!.dataCoding === ordered[start]!.dataCoding) end++;
    text += decodeText(Buffer.concat(ordered.slice(start, end).map((part) => part.userData)), ordered[start]!.dataCoding);
    start = end;
  }
  return text;
}

function deferred(): Deferred {
  let resolve!: (taskId: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  // A part whose caller answered at once never awaits this; its refusal must not crash the process.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  timer.unref?.();
  return timer;
}
