import { InvalidRequestError, Patterns, type BatchAnswer, type ClaimedTask, type TaskClaim, type TaskClaimBatch, type TaskReportBatchCommand, type TaskReportCommand, type TaskReported } from '@smsq/contracts';
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
  jitter: null,
  sim: null,
  parts: 1,  encrypted: false,
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

  it('forwards the reason of a failure to retry: the carrier refused for volume', async () => {
    const { sut, reportsSent } = setUp({ id: 7, status: 'pending' });

    await sut.report({ tokenId: 5, phoneId: 3 }, { id: 7, status: 'failed', error: 'RESULT_ERROR_LIMIT_EXCEEDED', next: false, retry: true, reason: 'carrier_volume' }, never, never);

    expect(reportsSent()).toEqual([{ tokenId: 5, id: 7, status: 'failed', error: 'RESULT_ERROR_LIMIT_EXCEEDED', retry: true, reason: 'carrier_volume', phoneId: 3 }]);
  });

  it('answers a claimed task with the pace its phone keeps', async () => {
    const { sut } = setUp({ id: 1, status: 'sent' }, { claimed: true, task: TASK });

    const body = await sut.claim({ tokenId: 5, phoneId: 3 }, 0, never, never);

    expect(body).toEqual(claimedTaskBody(TASK));
    expect(body).toMatchObject({ id: 7, per_minute: 12 });
  });
});

describe(`${WorkerTasksService.name} in batches`, () => {
  function setUpBatches(answers: { reports?: BatchAnswer<TaskReported>; claims?: (TaskClaimBatch | Error)[] }) {
    const claims = [...(answers.claims ?? [])];
    const dispatch = {
      send: vi.fn(async (pattern: string, _payload: object): Promise<unknown> => {
        if (pattern === Patterns.dispatch.taskReportBatch) return answers.reports;
        if (pattern === Patterns.dispatch.taskClaimBatch) {
          const claim = claims.shift() ?? { tasks: [], nextDueAt: null };
          if (claim instanceof Error) throw claim;
          return claim;
        }
        return { ok: true };
      }),
    };
    const signals = { register: () => ({ wait: async () => undefined, dispose: () => undefined }) };
    const sut = new WorkerTasksService(signals as unknown as DueSignals, dispatch as unknown as ServiceClient);
    const sent = (pattern: string) => dispatch.send.mock.calls.filter(([sentPattern]) => sentPattern === pattern).map(([, command]) => command);
    return { sut, sent };
  }

  it('answers each report in order: dispatch’s answer, or the error task-status would have given with its HTTP status', async () => {
    const { sut, sent } = setUpBatches({
      reports: {
        results: [
          { ok: true, value: { id: 4, status: 'sent' } },
          { ok: false, error: { error: 'not_found', detail: 'task not found' } },
          { ok: true, value: { id: 6, status: 'pending' } },
          { ok: false, error: { error: 'conflict', detail: 'task 7 is already sent' } },
        ],
      },
    });

    const answer = await sut.reportMany(
      { tokenId: 5, phoneId: 3 },
      {
        reports: [
          { id: 4, status: 'sent', error: undefined },
          new InvalidRequestError('id must be a positive integer'),
          { id: 5, status: 'sent', error: undefined },
          { id: 6, status: 'failed', error: 'radio off', retry: true, reason: 'carrier_volume' },
          { id: 7, status: 'failed', error: undefined },
        ],
        next: undefined,
      },
      never,
      never,
    );

    expect(answer).toEqual({
      results: [
        { ok: true, id: 4, status: 'sent' },
        { ok: false, error: 'invalid_request', detail: 'id must be a positive integer', http_status: 400 },
        { ok: false, error: 'not_found', detail: 'task not found', http_status: 404 },
        { ok: true, id: 6, status: 'pending' },
        { ok: false, error: 'conflict', detail: 'task 7 is already sent', http_status: 409 },
      ],
    });
    expect(sent(Patterns.dispatch.taskReportBatch)).toEqual([
      {
        tokenId: 5,
        phoneId: 3,
        reports: [
          { id: 4, status: 'sent' },
          { id: 5, status: 'sent' },
          { id: 6, status: 'failed', error: 'radio off', retry: true, reason: 'carrier_volume' },
          { id: 7, status: 'failed' },
        ],
      } satisfies TaskReportBatchCommand,
    ]);
    expect(sent(Patterns.dispatch.taskClaimBatch)).toEqual([]);
  });

  it('passes a released task to dispatch in its place among the others, and answers what dispatch answers for it', async () => {
    const { sut, sent } = setUpBatches({
      reports: {
        results: [
          { ok: true, value: { id: 4, status: 'sent' } },
          { ok: true, value: { id: 5, status: 'pending' } },
          { ok: false, error: { error: 'not_found', detail: 'task not found' } },
        ],
      },
    });

    const answer = await sut.reportMany(
      { tokenId: 5, phoneId: 3 },
      {
        reports: [
          { id: 4, status: 'sent', error: undefined },
          { id: 5, status: 'released', error: undefined },
          new InvalidRequestError('error and retry are not allowed with status "released": the task was never tried'),
          { id: 6, status: 'released', error: undefined },
        ],
        next: undefined,
      },
      never,
      never,
    );

    expect(answer).toEqual({
      results: [
        { ok: true, id: 4, status: 'sent' },
        { ok: true, id: 5, status: 'pending' },
        { ok: false, error: 'invalid_request', detail: 'error and retry are not allowed with status "released": the task was never tried', http_status: 400 },
        { ok: false, error: 'not_found', detail: 'task not found', http_status: 404 },
      ],
    });
    expect(sent(Patterns.dispatch.taskReportBatch)).toEqual([
      {
        tokenId: 5,
        phoneId: 3,
        reports: [
          { id: 4, status: 'sent' },
          { id: 5, status: 'released' },
          { id: 6, status: 'released' },
        ],
      } satisfies TaskReportBatchCommand,
    ]);
    expect(sent(Patterns.dispatch.taskRelease)).toEqual([]);
  });

  it('asks dispatch nothing when every report is refused, and claims the next tasks without waiting', async () => {
    const { sut, sent } = setUpBatches({ claims: [{ tasks: [TASK, { ...TASK, id: 8, perMinute: null }], nextDueAt: null }] });

    const answer = await sut.reportMany({ tokenId: 5, phoneId: null }, { reports: [new InvalidRequestError('status must be one of "sent"')], next: 20 }, never, never);

    expect(answer.results).toEqual([{ ok: false, error: 'invalid_request', detail: 'status must be one of "sent"', http_status: 400 }]);
    expect(answer.tasks).toEqual([claimedTaskBody(TASK), claimedTaskBody({ ...TASK, id: 8, perMinute: null })]);
    expect(answer.tasks![1]).not.toHaveProperty('per_minute');
    expect(sent(Patterns.dispatch.taskReportBatch)).toEqual([]);
    expect(sent(Patterns.dispatch.taskClaimBatch)).toEqual([{ tokenId: 5, phoneId: undefined, limit: 20 }]);
  });

  it('keeps the reports when the claim of the next tasks fails: no tasks', async () => {
    const { sut } = setUpBatches({ reports: { results: [{ ok: true, value: { id: 4, status: 'failed' } }] }, claims: [new InvalidRequestError('phone disabled')] });

    const answer = await sut.reportMany({ tokenId: 5, phoneId: 3 }, { reports: [{ id: 4, status: 'failed', error: undefined }], next: 3 }, never, never);

    expect(answer).toEqual({ results: [{ ok: true, id: 4, status: 'failed' }], tasks: [] });
  });

  it('claims a batch after waiting for the first task, and answers it as {"tasks": [...]}', async () => {
    const { sut, sent } = setUpBatches({ claims: [{ tasks: [], nextDueAt: null }, { tasks: [TASK], nextDueAt: null }] });

    await expect(sut.claimMany({ tokenId: 5, phoneId: 3 }, 50, 1, never, never)).resolves.toEqual({ tasks: [claimedTaskBody(TASK)] });
    expect(sent(Patterns.dispatch.taskClaimBatch)).toEqual([{ tokenId: 5, phoneId: 3, limit: 50 }, { tokenId: 5, phoneId: 3, limit: 50 }]);
  });

  it('puts back every task of a batch claimed for a poller that is gone', async () => {
    const { sut, sent } = setUpBatches({ claims: [{ tasks: [TASK, { ...TASK, id: 8 }], nextDueAt: null }] });
    const gone = new AbortController();
    gone.abort();

    await expect(sut.claimMany({ tokenId: 5, phoneId: 3 }, 2, 0, gone.signal, never)).resolves.toEqual({ tasks: [] });
    expect(sent(Patterns.dispatch.taskRelease)).toEqual([
      { tokenId: 5, id: 7 },
      { tokenId: 5, id: 8 },
    ]);
  });
});

describe(claimedTaskBody.name, () => {
  it('answers exactly §3’s fields, a long message too, when smsq sets no pace, jitter or SIM', () => {
    const plain = ['id', 'recipient', 'message', 'phone_id', 'client_id', 'scheduled_at', 'gateway_url', 'attempt', 'claim_expires_at'];
    expect(Object.keys(claimedTaskBody({ ...TASK, perMinute: null }))).toEqual(plain);
    expect(Object.keys(claimedTaskBody({ ...TASK, perMinute: null, parts: 3 }))).toEqual(plain);
  });

  it('adds the jitter and the SIM where set', () => {
    expect(claimedTaskBody({ ...TASK, parts: 3, jitter: 20, sim: 2 })).toMatchObject({ parts: 3, per_minute: 12, jitter: 20, sim: 2 });
    expect(claimedTaskBody({ ...TASK, jitter: 0 })).toMatchObject({ jitter: 0 });
  });
});
