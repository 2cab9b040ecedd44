import { Patterns, type ClaimedTask, type TaskClaim, type TaskReportCommand, type TaskReported } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it, vi } from 'vitest';
import type { DueSignals } from './due-signals.js';
import { claimedTaskBody, WorkerTasksService } from './worker-tasks.service.js';

const TASK: ClaimedTask = {
  id: 7,
  recipient: '+381641234567',
  message: 'hello',
  phoneId: 3,
  clientId: 2,
  scheduledAt: '2026-11-26 10:00:00',
  gatewayUrl: null,
  attempt: 1,
  claimExpiresAt: '2026-11-26T09:05:00.000Z',
  perMinute: 12,
};

function setUp(reported: TaskReported, claim: TaskClaim = { claimed: false, nextDueAt: null }) {
  const dispatch = {
    send: vi.fn(async (pattern: string, _payload: object) => (pattern === Patterns.dispatch.taskReport ? reported : claim)),
  };
  const signals = { register: () => ({ wait: async () => undefined, dispose: () => undefined }) };
  const sut = new WorkerTasksService(signals as unknown as DueSignals, dispatch as unknown as ServiceClient);
  const reportsSent = () => dispatch.send.mock.calls.filter(([pattern]) => pattern === Patterns.dispatch.taskReport).map(([, command]) => command as unknown as TaskReportCommand);
  return { sut, reportsSent };
}

const never = new AbortController().signal;

describe(WorkerTasksService.name, () => {
  it('sends a report without retry exactly as before: no retry and, for an unbound token, no phone', async () => {
    const { sut, reportsSent } = setUp({ id: 7, status: 'failed' });

    await expect(sut.report({ tokenId: 5, phoneId: null }, { id: 7, status: 'failed', error: 'no signal', next: false }, never, never)).resolves.toEqual({ ok: true, id: 7, status: 'failed' });

    expect(reportsSent()).toEqual([{ tokenId: 5, id: 7, status: 'failed', error: 'no signal' }]);
    expect(Object.keys(reportsSent()[0]!)).not.toContain('retry');
  });

  it('forwards retry and the phone the token is bound to, and answers the task pending again', async () => {
    const { sut, reportsSent } = setUp({ id: 7, status: 'pending' });

    await expect(sut.report({ tokenId: 5, phoneId: 3 }, { id: 7, status: 'failed', error: 'radio off', next: false, retry: true }, never, never)).resolves.toEqual({ ok: true, id: 7, status: 'pending' });

    expect(reportsSent()).toEqual([{ tokenId: 5, id: 7, status: 'failed', error: 'radio off', retry: true, phoneId: 3 }]);
  });

  it('answers a claimed task with the pace its phone keeps', async () => {
    const { sut } = setUp({ id: 1, status: 'sent' }, { claimed: true, task: TASK });

    const body = await sut.claim({ tokenId: 5, phoneId: 3 }, 0, never, never);

    expect(body).toEqual(claimedTaskBody(TASK));
    expect(body).toMatchObject({ id: 7, per_minute: 12 });
  });
});

describe(claimedTaskBody.name, () => {
  it('answers exactly §3’s fields when smsq sets no pace', () => {
    expect(Object.keys(claimedTaskBody({ ...TASK, perMinute: null }))).toEqual(['id', 'recipient', 'message', 'phone_id', 'client_id', 'scheduled_at', 'gateway_url', 'attempt', 'claim_expires_at']);
  });
});
