import { DomainError, Patterns, type TaskView } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { IdempotencyRepository } from '../idempotency/idempotency.repository.js';
import { IdempotencyService } from '../idempotency/idempotency.service.js';
import type { AbandonedCreatesRepository } from './abandoned-creates.repository.js';
import { ClientTasksService } from './client-tasks.service.js';

const OWNER = { keyId: 1, clientId: 7, timezone: 'Europe/Belgrade' };
const SMS = { recipient: '+381641234567', message: 'hello' };
const STORED = { id: 41, clientId: 7, phoneId: 3, scheduledAt: '2026-11-22 10:00:00', status: 'pending' } as unknown as TaskView;

/** Dispatch answers the create with `createError`, though the task was stored; settling the key finds it. */
function setUp(createError: DomainError) {
  const dispatch = {
    send: vi.fn(async (pattern: string) => {
      if (pattern === Patterns.dispatch.taskCreate) throw createError;
      if (pattern === Patterns.dispatch.taskSettle) return { outcome: 'created', task: STORED };
      throw new Error(`unexpected ${pattern}`);
    }),
  };
  const billing = { send: vi.fn(async () => ({ creditsRemaining: 29 })) };
  const config = { profile: 'A', createTimeoutMs: 8_000, rpcTimeoutMs: 5_000 } as GatewayConfig;
  const idempotency = new IdempotencyService({} as IdempotencyRepository, config);
  const sut = new ClientTasksService(config, idempotency, { record: vi.fn() } as unknown as AbandonedCreatesRepository, dispatch as unknown as ServiceClient, billing as unknown as ServiceClient);
  return { sut, dispatch };
}

describe(ClientTasksService.name, () => {
  it.each([
    ['unavailable', new DomainError('unavailable', 'billing did not answer')],
    ['internal_error', new DomainError('internal_error', 'something broke after the insert')],
  ])('settles the task key when dispatch answers %s, and answers 201 with the task that was stored', async (_code, error) => {
    const { sut, dispatch } = setUp(error);

    const answer = await sut.create(OWNER, SMS, undefined);

    expect(answer).toMatchObject({ ok: true, id: 41, credits_remaining: 29 });
    expect(dispatch.send).toHaveBeenCalledWith(Patterns.dispatch.taskSettle, expect.objectContaining({ taskKey: expect.any(String) }));
  });

  it.each([
    ['no_active_phone', new DomainError('no_active_phone', 'no phone')],
    ['no_active_gateway', new DomainError('no_active_gateway', 'no gateway')],
  ])('passes the refusal %s on without settling: nothing was stored', async (code, error) => {
    const { sut, dispatch } = setUp(error);

    await expect(sut.create(OWNER, SMS, undefined)).rejects.toMatchObject({ code });
    expect(dispatch.send).toHaveBeenCalledTimes(1);
  });
});
