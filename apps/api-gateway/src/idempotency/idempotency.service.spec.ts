import { ConflictError, UnavailableError } from '@smsq/contracts';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { IdempotencyRecordRow, IdempotencyRepository } from './idempotency.repository.js';
import { UndecidedOutcomeError } from '@smsq/task-intake';
import { attemptKeyOf, hashBody, IdempotencyService } from './idempotency.service.js';

/** The records table, in memory: one row per client and key. */
class RecordsInMemory {
  readonly rows = new Map<string, IdempotencyRecordRow>();

  async tryInsert(clientId: number, key: string, requestHash: string): Promise<Date | undefined> {
    if (this.rows.has(`${clientId}/${key}`)) return undefined;
    const createdAt = new Date();
    this.rows.set(`${clientId}/${key}`, { requestHash, statusCode: null, response: null, createdAt, undecidedAt: null });
    return createdAt;
  }

  async find(clientId: number, key: string): Promise<IdempotencyRecordRow | null> {
    return this.rows.get(`${clientId}/${key}`) ?? null;
  }

  async complete(clientId: number, key: string, statusCode: number, response: object): Promise<void> {
    const row = this.rows.get(`${clientId}/${key}`);
    if (row) this.rows.set(`${clientId}/${key}`, { ...row, statusCode, response });
  }

  async markUndecided(clientId: number, key: string, createdAt: Date): Promise<void> {
    const row = this.rows.get(`${clientId}/${key}`);
    if (row?.createdAt.getTime() === createdAt.getTime() && row.statusCode === null) this.rows.set(`${clientId}/${key}`, { ...row, undecidedAt: new Date() });
  }

  async removeIfCreatedAt(clientId: number, key: string, createdAt: Date): Promise<boolean> {
    if (this.rows.get(`${clientId}/${key}`)?.createdAt.getTime() !== createdAt.getTime()) return false;
    return this.rows.delete(`${clientId}/${key}`);
  }

  /** A record a gateway started and never finished because it died, this long ago. */
  leftInProgress(clientId: number, key: string, body: unknown, ageMs: number): Date {
    const createdAt = new Date(Date.now() - ageMs);
    this.rows.set(`${clientId}/${key}`, { requestHash: hashBody(body), statusCode: null, response: null, createdAt, undecidedAt: null });
    return createdAt;
  }
}

const BODY = { recipient: '+381641234567', message: 'hello' };

const REPLAY_S = 120;

function setUp() {
  const records = new RecordsInMemory();
  const sut = new IdempotencyService(records as unknown as IdempotencyRepository, { createTimeoutMs: 8_000, rpcTimeoutMs: 5_000, idempotencyReplayS: REPLAY_S } as GatewayConfig);
  return { records, sut };
}

describe(IdempotencyService.name, () => {
  it('replays an answer for SMSQ_RETENTION_IDEMPOTENCY_S and runs afresh once the record is past it, the same window retention prunes by', async () => {
    const { records, sut } = setUp();
    const first = { ok: true, id: 1 };
    await sut.run(7, 'k1', BODY, { run: async () => first, recover: vi.fn() });
    const row = records.rows.get('7/k1')!;

    records.rows.set('7/k1', { ...row, createdAt: new Date(Date.now() - (REPLAY_S - 5) * 1_000) });
    expect(await sut.run(7, 'k1', BODY, { run: vi.fn(), recover: vi.fn() })).toEqual(first);

    records.rows.set('7/k1', { ...row, createdAt: new Date(Date.now() - (REPLAY_S + 1) * 1_000) });
    const run = vi.fn(async () => ({ ok: true, id: 2 }));
    expect(await sut.run(7, 'k1', BODY, { run, recover: vi.fn() })).toEqual({ ok: true, id: 2 });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('answers the task a dead gateway stored for the key, instead of queuing a second one', async () => {
    const { records, sut } = setUp();
    const createdAt = records.leftInProgress(7, 'k1', BODY, 21_000);
    const stored = { ok: true, id: 41 };
    const work = { run: vi.fn(async () => ({ ok: true, id: 42 })), recover: vi.fn(async () => stored) };

    expect(await sut.run(7, 'k1', BODY, work)).toEqual(stored);

    expect(work.recover).toHaveBeenCalledWith(attemptKeyOf(7, 'k1', createdAt));
    expect(work.run).not.toHaveBeenCalled();
    // And the answer is kept: the next repeat is a plain replay.
    expect(await sut.run(7, 'k1', BODY, { run: vi.fn(), recover: vi.fn() })).toEqual(stored);
  });

  it('runs afresh, under a new attempt key, once the dead gateway’s attempt is known never to be stored', async () => {
    const { records, sut } = setUp();
    const createdAt = records.leftInProgress(7, 'k1', BODY, 21_000);
    const run = vi.fn(async (attemptKey: string) => ({ ok: true, attemptKey }));

    const answer = await sut.run(7, 'k1', BODY, { run, recover: async () => undefined });

    expect(answer.attemptKey).not.toBe(attemptKeyOf(7, 'k1', createdAt));
    expect(answer.attemptKey).toBe(attemptKeyOf(7, 'k1', records.rows.get('7/k1')!.createdAt));
  });

  it('leaves the record alone while what became of the dead gateway’s attempt cannot be learnt', async () => {
    const { records, sut } = setUp();
    records.leftInProgress(7, 'k1', BODY, 21_000);
    const run = vi.fn();

    await expect(sut.run(7, 'k1', BODY, { run, recover: async () => Promise.reject(new Error('dispatch down')) })).rejects.toThrow('dispatch down');

    expect(run).not.toHaveBeenCalled();
    expect(records.rows.get('7/k1')?.statusCode).toBeNull();
  });

  it('keeps the record in progress when the work cannot tell whether it took effect, and a repeat settles it at once rather than queue a second task', async () => {
    const { records, sut } = setUp();
    const undecided = { run: async () => Promise.reject(new UndecidedOutcomeError('dispatch did not answer')), recover: vi.fn() };
    await expect(sut.run(7, 'k1', BODY, undecided)).rejects.toThrow(UndecidedOutcomeError);
    const createdAt = records.rows.get('7/k1')!.createdAt;

    // While what became of it cannot be learnt, the repeat is "retry later" and the record stays.
    const run = vi.fn(async () => ({ ok: true, id: 6 }));
    await expect(sut.run(7, 'k1', BODY, { run, recover: async () => Promise.reject(new UnavailableError()) })).rejects.toThrow(UnavailableError);
    expect(run).not.toHaveBeenCalled();
    expect(records.rows.get('7/k1')).toMatchObject({ statusCode: null, createdAt });

    // Stored after all: that task is the answer, kept for the repeats after.
    const recover = vi.fn(async (attemptKey: string) => ({ ok: true, id: 5, attemptKey }));
    expect(await sut.run(7, 'k1', BODY, { run, recover })).toEqual({ ok: true, id: 5, attemptKey: attemptKeyOf(7, 'k1', createdAt) });
    expect(await sut.run(7, 'k1', BODY, { run, recover })).toEqual({ ok: true, id: 5, attemptKey: attemptKeyOf(7, 'k1', createdAt) });
    expect(run).not.toHaveBeenCalled();
    expect(recover).toHaveBeenCalledTimes(1);

    // Certainly never stored: the repeat runs afresh.
    await expect(sut.run(7, 'k2', BODY, undecided)).rejects.toThrow(UndecidedOutcomeError);
    expect(await sut.run(7, 'k2', BODY, { run, recover: async () => undefined })).toEqual({ ok: true, id: 6 });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('drops the record when the work failed with nothing done, so a repeat runs afresh', async () => {
    const { sut } = setUp();
    await expect(sut.run(7, 'k1', BODY, { run: async () => Promise.reject(new UnavailableError()), recover: vi.fn() })).rejects.toThrow(UnavailableError);

    expect(await sut.run(7, 'k1', BODY, { run: async () => ({ ok: true, id: 5 }), recover: vi.fn() })).toEqual({ ok: true, id: 5 });
  });

  it('still answers 409 to a repeat while the first request may be running', async () => {
    const { records, sut } = setUp();
    records.leftInProgress(7, 'k1', BODY, 19_000);
    const recover = vi.fn();

    await expect(sut.run(7, 'k1', BODY, { run: vi.fn(), recover })).rejects.toThrow(ConflictError);
    expect(recover).not.toHaveBeenCalled();
  });

  it('never reads a dead gateway’s attempt through a different body: that repeat is a conflict, and the record waits for its own', async () => {
    const { records, sut } = setUp();
    records.leftInProgress(7, 'k1', BODY, 21_000);
    const recover = vi.fn();

    await expect(sut.run(7, 'k1', { ...BODY, message: 'other' }, { run: vi.fn(), recover })).rejects.toThrow('different body');
    expect(recover).not.toHaveBeenCalled();
    expect(records.rows.get('7/k1')?.statusCode).toBeNull();
  });

  it('keeps each endpoint’s success under its own status, and a key first used on the other endpoint is a conflict', async () => {
    const { sut } = setUp();
    const answer = { results: [{ ok: true, id: 5 }] };
    expect(await sut.run(7, 'k1', BODY, { run: async () => answer, recover: vi.fn() }, 200)).toEqual(answer);

    expect(await sut.run(7, 'k1', BODY, { run: vi.fn(), recover: vi.fn() }, 200)).toEqual(answer);
    await expect(sut.run(7, 'k1', BODY, { run: vi.fn(), recover: vi.fn() }, 201)).rejects.toThrow('another endpoint');
  });
});
