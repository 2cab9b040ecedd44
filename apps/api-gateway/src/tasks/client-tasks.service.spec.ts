import { DomainError, Patterns, type TaskView } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import { ClientTasksService } from './client-tasks.service.js';
import type { TemplatesRepository } from '../templates/templates.repository.js';
import { type AbandonedCreates, CreateBatcher, TaskCreator } from '@smsq/task-intake';

const OWNER = { keyId: 1, clientId: 7, timezone: 'Europe/Belgrade' };
const SMS = { recipient: '+381641234567', message: 'hello' };
const STORED = { id: 41, clientId: 7, phoneId: 3, scheduledAt: '2026-11-22 10:00:00', status: 'pending' } as unknown as TaskView;

/**
 * Dispatch answers the create with `createError`, though the task was stored; settling the key
 * finds it. `whole`: the batch message itself fails, rather than its one item.
 */
function setUp(createError: DomainError, whole = false) {
  const dispatch = {
    send: vi.fn(async (pattern: string, _payload?: unknown) => {
      if (pattern === Patterns.dispatch.taskCreateBatch) {
        if (whole) throw createError;
        return { results: [{ ok: false, error: createError.toBody() }] };
      }
      if (pattern === Patterns.dispatch.taskSettle) return { outcome: 'created', task: STORED };
      throw new Error(`unexpected ${pattern}`);
    }),
  };
  const billing = { send: vi.fn(async () => ({ creditsRemaining: 29 })) };
  const config = { profile: 'A', createTimeoutMs: 8_000, rpcTimeoutMs: 5_000, createBatchesInFlight: 2, idempotencyReplayS: 86_400 } as GatewayConfig;
  const idempotency = new IdempotencyService({} as IdempotencyRepository, config);
  const batcher = new CreateBatcher(config, dispatch as unknown as ServiceClient);
  const abandoned = { record: vi.fn() } as unknown as AbandonedCreates;
  const creator = new TaskCreator(config, abandoned, batcher, dispatch as unknown as ServiceClient, billing as unknown as ServiceClient);
  const sut = new ClientTasksService(config, idempotency, creator, dispatch as unknown as ServiceClient, NO_TEMPLATES);
  return { sut, dispatch };
}

/** A client with no templates: no body in these tests names one. */
const NO_TEMPLATES = { byIds: async () => new Map() } as unknown as TemplatesRepository;

describe(ClientTasksService.name, () => {
  it.each([
    ['unavailable', new DomainError('unavailable', 'billing did not answer'), false],
    ['internal_error', new DomainError('internal_error', 'something broke after the insert'), false],
    ['unavailable for the whole batch', new DomainError('unavailable', 'dispatch did not answer'), true],
  ])('settles the task key when dispatch answers %s, and answers 201 with the task that was stored', async (_code, error, whole) => {
    const { sut, dispatch } = setUp(error, whole);

    const answer = await sut.create(OWNER, SMS, undefined);

    expect(answer).toMatchObject({ ok: true, id: 41, credits_remaining: 29 });
    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.taskSettle, expect.objectContaining({ taskKey: expect.any(String) }));
  });

  it('passes priority "high" on to dispatch, and leaves a normal one out as before', async () => {
    const { sut, dispatch } = setUp(new DomainError('no_active_phone', 'no phone'));

    await expect(sut.create(OWNER, { ...SMS, priority: 'high' }, undefined)).rejects.toMatchObject({ code: 'no_active_phone' });
    await expect(sut.create(OWNER, { ...SMS, priority: 'normal' }, undefined)).rejects.toMatchObject({ code: 'no_active_phone' });

    const creates = dispatch.send.mock.calls.map(([, payload]) => (payload as { creates: Array<Record<string, unknown>> }).creates[0]);
    expect(creates[0]).toMatchObject({ recipient: '+381641234567', priority: 'high' });
    expect(creates[1]).not.toHaveProperty('priority');
  });

  it('refuses, in place, an item of create-tasks with a priority it does not know', async () => {
    const { sut } = setUp(new DomainError('no_active_phone', 'no phone'));

    const answer = await sut.createMany(OWNER, { tasks: [{ ...SMS, priority: 'urgent' }] }, undefined);

    expect(answer.results).toEqual([{ ok: false, error: 'invalid_request', detail: expect.stringContaining('priority must be "normal" or "high"') }]);
  });

  it.each([
    ['no_active_phone', new DomainError('no_active_phone', 'no phone')],
    ['no_active_gateway', new DomainError('no_active_gateway', 'no gateway')],
  ])('passes the refusal %s on without settling: nothing was stored', async (code, error) => {
    const { sut, dispatch } = setUp(error);

    await expect(sut.create(OWNER, SMS, undefined)).rejects.toMatchObject({ code });
    expect(dispatch.send).toHaveBeenCalledTimes(1);
  });

  describe('createMany', () => {
    /** Dispatch stores every create it is sent, except those to `refused` numbers; settling finds nothing. */
    function setUpMany(options: { refused?: string; silentAfterCreate?: boolean } = {}) {
      let nextId = 100;
      /** What settling a task key finds: nothing until dispatch answers again. */
      const settling: { answer?: () => unknown } = {};
      const created: string[] = [];
      const dispatch = {
        send: vi.fn(async (pattern: string, payload: { creates?: Array<{ taskKey: string; recipient: string }> }) => {
          if (pattern === Patterns.dispatch.taskCreateBatch) {
            if (options.silentAfterCreate) throw new DomainError('unavailable', 'dispatch did not answer');
            return {
              results: payload.creates!.map((create) => {
                if (create.recipient === options.refused) return { ok: false, error: { error: 'insufficient_credits', detail: 'no credits left' } };
                created.push(create.taskKey);
                return { ok: true, value: { task: { ...STORED, id: nextId++ }, creditsRemaining: 10 } };
              }),
            };
          }
          if (pattern === Patterns.dispatch.taskSettle) {
            if (!settling.answer) throw new DomainError('unavailable', 'dispatch did not answer');
            return settling.answer();
          }
          throw new Error(`unexpected ${pattern}`);
        }),
      };
      const billing = { send: vi.fn(async () => ({ creditsRemaining: 29 })) };
      const config = { profile: 'A', createTimeoutMs: 8_000, rpcTimeoutMs: 5_000, createBatchesInFlight: 2, idempotencyReplayS: 86_400 } as GatewayConfig;
      const records = new Map<string, { statusCode: number | null; response?: unknown; createdAt: Date; requestHash: string }>();
      const repository = {
        tryInsert: async (_clientId: number, key: string, requestHash: string) => {
          if (records.has(key)) return undefined;
          const createdAt = new Date();
          records.set(key, { statusCode: null, createdAt, requestHash });
          return createdAt;
        },
        find: async (_clientId: number, key: string) => records.get(key),
        complete: async (_clientId: number, key: string, statusCode: number, response: unknown) => void records.set(key, { ...records.get(key)!, statusCode, response }),
        removeIfCreatedAt: async (_clientId: number, key: string) => records.delete(key),
      } as unknown as IdempotencyRepository;
      const idempotency = new IdempotencyService(repository, config);
      const abandoned = { record: vi.fn(async () => undefined) } as unknown as AbandonedCreates;
      const creator = new TaskCreator(config, abandoned, new CreateBatcher(config, dispatch as unknown as ServiceClient), dispatch as unknown as ServiceClient, billing as unknown as ServiceClient);
      const sut = new ClientTasksService(config, idempotency, creator, dispatch as unknown as ServiceClient, NO_TEMPLATES);
      return { sut, dispatch, created, records, abandoned, settling };
    }

    it('answers every item in place: queued ones with their 201 body, refused ones with their error, none of them sent to dispatch twice', async () => {
      const { sut, created } = setUpMany({ refused: '+381640000002' });

      const answer = await sut.createMany(OWNER, { tasks: [SMS, { recipient: 'not a number', message: 'x' }, { recipient: '+381640000002', message: 'x' }, { ...SMS, message: 'again' }] }, undefined);

      expect(answer.results).toEqual([
        expect.objectContaining({ ok: true, id: 100, status: 'pending', credits_remaining: 10 }),
        { ok: false, error: 'invalid_recipient', detail: expect.any(String) },
        { ok: false, error: 'insufficient_credits', detail: 'no credits left' },
        expect.objectContaining({ ok: true, id: 101 }),
      ]);
      expect(new Set(created).size).toBe(2);
    });

    it.each([
      [{}, 'tasks is required'],
      [{ tasks: {} }, 'tasks is required'],
      [{ tasks: [] }, 'it holds 0'],
      [{ tasks: Array.from({ length: 1001 }, () => SMS) }, 'it holds 1001'],
    ])('refuses the whole request %# when its list is not 1 to 1000 items', async (body, detail) => {
      const { sut, dispatch } = setUpMany();

      await expect(sut.createMany(OWNER, body, undefined)).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining(detail) });
      expect(dispatch.send).not.toHaveBeenCalled();
    });

    it('without an Idempotency-Key, an item whose outcome could not be learnt is answered unavailable and its key abandoned', async () => {
      const { sut, abandoned } = setUpMany({ silentAfterCreate: true });

      const answer = await sut.createMany(OWNER, { tasks: [SMS] }, undefined);

      expect(answer.results).toEqual([{ ok: false, error: 'unavailable', detail: expect.any(String) }]);
      expect(abandoned.record).toHaveBeenCalledTimes(1);
    });

    it('with an Idempotency-Key too: the other items stand, and the answer is kept for the repeat', async () => {
      const { sut, records } = setUpMany({ silentAfterCreate: true });

      const answer = await sut.createMany(OWNER, { tasks: [SMS] }, 'bulk-1');

      expect(answer.results).toEqual([{ ok: false, error: 'unavailable', detail: expect.any(String) }]);
      expect(records.get('bulk-1')).toMatchObject({ statusCode: 200 });
    });

    it('a repeat learns what became of an item answered unavailable: one a worker took before it could be abandoned is its task from then on', async () => {
      const { sut, records, settling } = setUpMany({ silentAfterCreate: true });
      const body = { tasks: [SMS, { ...SMS, message: 'second' }] };
      await sut.createMany(OWNER, body, 'bulk-2');

      settling.answer = () => ({ outcome: 'created', task: { ...STORED, id: 77, status: 'claimed' } });
      const repeat = await sut.createMany(OWNER, body, 'bulk-2');

      expect(repeat.results).toEqual([
        expect.objectContaining({ ok: true, id: 77, credits_remaining: 29 }),
        expect.objectContaining({ ok: true, id: 77 }),
      ]);
      expect(records.get('bulk-2')).toMatchObject({ statusCode: 200, response: repeat });
    });

    it('a repeat keeps an item unavailable once settling finds it was not queued, and changes nothing', async () => {
      const { sut, records, settling, dispatch } = setUpMany({ silentAfterCreate: true });
      const first = await sut.createMany(OWNER, { tasks: [SMS] }, 'bulk-3');

      settling.answer = () => ({ outcome: 'voided' });
      const repeat = await sut.createMany(OWNER, { tasks: [SMS] }, 'bulk-3');

      expect(repeat).toEqual(first);
      expect(records.get('bulk-3')).toMatchObject({ response: first });
      expect(dispatch.send).toHaveBeenLastCalledWith(Patterns.dispatch.taskSettle, expect.objectContaining({ abandon: true }));
    });
  });
});
