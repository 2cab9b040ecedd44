import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CommandStatus } from './command-status.js';
import { PartRefused } from './part-refused.js';
import { PartsAssembler, type IncomingPart, type OpenMessageView, type PartOutcome } from './parts-assembler.js';
import { DataCoding, UnsupportedDataCoding } from './text-coding.js';

const TIMEOUT_MS = 60_000;

function part(seq: number, text: string, overrides: Partial<IncomingPart> = {}): IncomingPart {
  return { clientId: 1, sourceAddr: '38164000111', destinationAddr: '38164123456', reference: 7, total: 3, seq, dataCoding: DataCoding.gsm, userData: Buffer.from(text), ...overrides };
}

function refusalOf(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe(PartsAssembler.name, () => {
  let expired: OpenMessageView[];
  let sut: PartsAssembler;
  let ids: number;

  beforeEach(() => {
    vi.useFakeTimers();
    expired = [];
    ids = 0;
    sut = new PartsAssembler({ timeoutMs: TIMEOUT_MS, onExpired: (message) => expired.push(message), newAssemblyId: () => `assembly-${++ids}` });
  });

  afterEach(() => {
    sut.close();
    vi.useRealTimers();
  });

  it('makes the message whole when its last part arrives, and answers every part with the task id', async () => {
    const first = sut.accept(part(1, 'one '));
    const second = sut.accept(part(2, 'two '));
    const last = sut.accept(part(3, 'three'));

    expect([first.kind, second.kind]).toEqual(['waiting', 'waiting']);
    expect(last).toMatchObject({ kind: 'complete', assemblyId: 'assembly-1', text: 'one two three' });
    sut.resolve(last.assemblyId, 'task-42');
    await expect(Promise.all([first.taskId, second.taskId, last.taskId])).resolves.toEqual(['task-42', 'task-42', 'task-42']);
    expect(sut.openMessages()).toEqual([]);
  });

  it('puts parts in order of their number whatever order they arrive in', () => {
    sut.accept(part(3, 'three'));
    sut.accept(part(1, 'one '));

    expect(sut.accept(part(2, 'two '))).toMatchObject({ kind: 'complete', text: 'one two three' });
  });

  it('joins an emoji whose surrogate pair a client split across two UCS-2 parts', () => {
    const octets = Buffer.from('0048d83dde000021', 'hex'); // "H😀!"
    sut.accept(part(1, '', { total: 2, dataCoding: DataCoding.ucs2, userData: octets.subarray(0, 4) }));

    expect(sut.accept(part(2, '', { total: 2, dataCoding: DataCoding.ucs2, userData: octets.subarray(4) }))).toMatchObject({ kind: 'complete', text: 'H😀!' });
  });

  it('refuses the whole message when a part does not arrive in time, and reports it', async () => {
    const first = sut.accept(part(1, 'one '));
    const third = sut.accept(part(3, 'three'));
    const outcome = Promise.allSettled([first.taskId, third.taskId]);

    vi.advanceTimersByTime(TIMEOUT_MS);

    const settled = await outcome;
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason).toMatchObject({ reason: 'incomplete', status: CommandStatus.ESME_RSUBMITFAIL });
    expect(expired).toEqual([expect.objectContaining({ assemblyId: 'assembly-1', clientId: 1, reference: 7, total: 3, received: [1, 3] })]);
    expect(sut.openMessages()).toEqual([]);
  });

  it('refuses a part that arrives after its message timed out instead of starting a half message', () => {
    sut.accept(part(1, 'one '));
    sut.accept(part(3, 'three'));
    vi.advanceTimersByTime(TIMEOUT_MS);

    const refusal = refusalOf(() => sut.accept(part(2, 'two ')));

    expect(refusal).toBeInstanceOf(PartRefused);
    expect(refusal).toMatchObject({ reason: 'incomplete', status: CommandStatus.ESME_RSUBMITFAIL });
  });

  it('does not time out a message whose parts all arrived within the timeout', () => {
    sut.accept(part(1, 'one '));
    vi.advanceTimersByTime(TIMEOUT_MS - 1);
    sut.accept(part(2, 'two '));
    const last = sut.accept(part(3, 'three'));
    vi.advanceTimersByTime(TIMEOUT_MS);

    expect(last.kind).toBe('complete');
    expect(expired).toEqual([]);
  });

  it('answers a part sent again with the same text as the first copy', async () => {
    const first = sut.accept(part(1, 'one '));
    const again = sut.accept(part(1, 'one '));
    sut.accept(part(2, 'two '));
    const last = sut.accept(part(3, 'three'));
    sut.resolve(last.assemblyId, 'task-7');
    const afterwards = sut.accept(part(3, 'three'));

    expect(again).toMatchObject({ kind: 'repeated', assemblyId: first.assemblyId });
    expect(afterwards).toMatchObject({ kind: 'repeated', assemblyId: first.assemblyId });
    await expect(afterwards.taskId).resolves.toBe('task-7');
  });

  it('refuses a part sent again with other text', () => {
    sut.accept(part(1, 'one '));

    expect(refusalOf(() => sut.accept(part(1, 'uno ')))).toMatchObject({ reason: 'conflicting-duplicate', status: CommandStatus.ESME_RSUBMITFAIL });
  });

  it('refuses a part whose total disagrees with its message', () => {
    sut.accept(part(1, 'one '));

    expect(refusalOf(() => sut.accept(part(2, 'two ', { total: 4 })))).toMatchObject({ reason: 'total-mismatch', status: CommandStatus.ESME_RINVOPTPARAMVAL });
  });

  it('refuses total 0, part 0 and a part past the total', () => {
    for (const numbering of [{ total: 0, seq: 1 }, { seq: 0 }, { total: 2, seq: 3 }, { total: 256, seq: 1 }]) {
      expect(refusalOf(() => sut.accept(part(1, 'x', numbering)))).toMatchObject({ reason: 'invalid-numbering', status: CommandStatus.ESME_RINVOPTPARAMVAL });
    }
  });

  it("refuses a part whose text cannot be read with the text coding's refusal", () => {
    expect(refusalOf(() => sut.accept(part(1, 'x', { dataCoding: 0x02 })))).toBeInstanceOf(UnsupportedDataCoding);
  });

  it('keeps messages of other clients, addresses and references apart', () => {
    const outcomes: PartOutcome[] = [
      sut.accept(part(1, 'a', { total: 2 })),
      sut.accept(part(1, 'b', { total: 2, clientId: 2 })),
      sut.accept(part(1, 'c', { total: 2, sourceAddr: 'Shop' })),
      sut.accept(part(1, 'd', { total: 2, destinationAddr: '38164999999' })),
      sut.accept(part(1, 'e', { total: 2, reference: 8 })),
    ];

    expect(new Set(outcomes.map((outcome) => outcome.assemblyId)).size).toBe(5);
    expect(sut.accept(part(2, 'B', { total: 2, clientId: 2 }))).toMatchObject({ kind: 'complete', text: 'bB' });
  });

  it("answers every part with the refusal of the whole message's task", async () => {
    const first = sut.accept(part(1, 'one ', { total: 2 }));
    const last = sut.accept(part(2, 'two', { total: 2 }));
    const refusal = new Error('no credits');

    sut.reject(last.assemblyId, refusal);

    await expect(first.taskId).rejects.toBe(refusal);
    await expect(last.taskId).rejects.toBe(refusal);
  });

  it('starts a new message when a client reuses a reference after its message was settled', () => {
    sut.accept(part(1, 'one ', { total: 2 }));
    const last = sut.accept(part(2, 'two', { total: 2 }));
    sut.resolve(last.assemblyId, 'task-1');

    const reused = sut.accept(part(1, 'new ', { total: 2 }));

    expect(reused).toMatchObject({ kind: 'waiting' });
    expect(reused.assemblyId).not.toBe(last.assemblyId);
  });

  it('refuses a new message with ESME_RMSGQFUL once too many are open', () => {
    const small = new PartsAssembler({ maxOpenMessages: 2, maxOpenMessagesPerClient: 2 });
    small.accept(part(1, 'a', { reference: 1 }));
    small.accept(part(1, 'b', { reference: 2 }));

    expect(refusalOf(() => small.accept(part(1, 'c', { reference: 3 })))).toMatchObject({ reason: 'too-many-open', status: CommandStatus.ESME_RMSGQFUL });
    expect(small.accept(part(2, 'a', { reference: 1 })).kind).toBe('waiting');
    small.close();
  });

  it('refuses text past the buffered-octets bound', () => {
    const small = new PartsAssembler({ maxBufferedOctets: 10 });
    small.accept(part(1, 'x'.repeat(8)));

    expect(refusalOf(() => small.accept(part(2, 'y'.repeat(8))))).toMatchObject({ reason: 'too-many-open' });
    expect(refusalOf(() => small.accept(part(1, 'z'.repeat(8), { reference: 99 })))).toMatchObject({ reason: 'too-many-open' });
    expect(small.openMessages()).toHaveLength(1);
    small.close();
  });

  it('lists the messages waiting for parts', () => {
    sut.accept(part(2, 'two '));

    expect(sut.openMessages()).toEqual([expect.objectContaining({ assemblyId: 'assembly-1', received: [2], total: 3, since: new Date() })]);
  });

  it('refuses to settle a message that is not whole', () => {
    const first = sut.accept(part(1, 'one '));

    expect(() => sut.resolve(first.assemblyId, 'task-1')).toThrow();
  });
});
