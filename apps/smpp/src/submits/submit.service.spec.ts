import { DomainError, Patterns, type TaskCreateBatchCommand, type TaskCreateCommand } from '@smsq/contracts';
import type { ServiceClient, TokenBuckets } from '@smsq/platform';
import { AbandonedCreates, CreateBatcher, TaskCreator } from '@smsq/task-intake';
import { describe, expect, it } from 'vitest';
import type { SmppConfig } from '../config/smpp-config.js';
import { CommandStatus } from '../protocol/index.js';
import type { PhoneNumbers } from './phone-numbers.js';
import { SMSQ_STATUS } from './refusal-status.js';
import type { SubmissionsRepository } from './submissions.repository.js';
import { SubmitService, type SubmitRequest } from './submit.service.js';

const config = { profile: 'A', defaultRegion: undefined, createTimeoutMs: 8_000, createBatchesInFlight: 4 } as SmppConfig;

/** Dispatch as the creator sees it: each create stored as task 100, 101, … unless `refuse` names its recipient. */
function dispatchStandIn(refuse: Record<string, DomainError> = {}) {
  const creates: TaskCreateCommand[] = [];
  const client = {
    async send(pattern: string, payload: TaskCreateBatchCommand) {
      expect(pattern).toBe(Patterns.dispatch.taskCreateBatch);
      return {
        results: payload.creates.map((create) => {
          const refusal = refuse[create.recipient];
          if (refusal) return { ok: false, error: refusal.toBody() };
          creates.push(create);
          return {
            ok: true,
            value: { task: { id: 99 + creates.length, phoneId: 3, clientId: create.clientId, scheduledAt: create.scheduledLocal }, creditsRemaining: 10 },
          };
        }),
      };
    },
  } as unknown as ServiceClient;
  return { client, creates };
}

function serviceWith(dispatch: ServiceClient) {
  const creator = new TaskCreator(config, {} as AbandonedCreates, new CreateBatcher(config, dispatch), dispatch, {} as ServiceClient);
  const buckets = { take: async () => ({ allowed: true }) } as unknown as TokenBuckets;
  const phones = { phoneOf: async (_clientId: number, sourceAddr: string) => (sourceAddr === '381601112222' ? 5 : undefined) } as unknown as PhoneNumbers;
  const recorded: unknown[] = [];
  const submissions = { record: async (row: unknown) => void recorded.push(row) } as unknown as SubmissionsRepository;
  return { sut: new SubmitService(config, creator, buckets, phones, submissions), recorded };
}

const submit = (fields: Partial<SubmitRequest> = {}): SubmitRequest => ({
  identity: { credentialId: 1, clientId: 7, systemId: 'shop', sourceAddresses: [], timezone: 'Europe/Belgrade', createdAt: '2026-11-01T00:00:00Z' },
  sourceAddr: 'SHOP',
  destinationAddr: '381641234567',
  internationalDestination: true,
  text: 'Your code is 1234',
  registeredDelivery: 0,
  priorityFlag: 0,
  scheduledAt: undefined,
  validUntil: undefined,
  ...fields,
});

describe(SubmitService.name, () => {
  it('queues a submit as create-task would: the recipient in E.164, the task id as its answer', async () => {
    const dispatch = dispatchStandIn();
    const { sut } = serviceWith(dispatch.client);

    expect(await sut.submit(submit())).toEqual({ ok: true, taskId: 100 });
    expect(dispatch.creates[0]).toMatchObject({ clientId: 7, recipient: '+381641234567', message: 'Your code is 1234' });
    expect(dispatch.creates[0]).not.toHaveProperty('priority');
    expect(dispatch.creates[0]).not.toHaveProperty('receipts');
  });

  it("carries SMPP's fields as create-task's: the sender's phone, priority, validity as expiry, receipts", async () => {
    const dispatch = dispatchStandIn();
    const { sut, recorded } = serviceWith(dispatch.client);
    const validUntil = new Date(Date.now() + 600_000);

    await sut.submit(submit({ sourceAddr: '381601112222', priorityFlag: 1, validUntil, registeredDelivery: 1 }));

    const create = dispatch.creates[0]!;
    expect(create).toMatchObject({ requestedPhoneId: 5, priority: 'high', receipts: true });
    expect(Math.abs(Date.parse(create.expiresAt!) - validUntil.getTime())).toBeLessThan(1_000);
    expect(recorded).toEqual([expect.objectContaining({ taskId: 100, sourceAddr: '381601112222', registeredDelivery: 1 })]);
  });

  it("refuses by create-task's own rules before anything reaches dispatch", async () => {
    const dispatch = dispatchStandIn();
    const { sut } = serviceWith(dispatch.client);

    expect(await sut.submit(submit({ destinationAddr: '12' }))).toMatchObject({ ok: false, status: CommandStatus.ESME_RINVDSTADR });
    expect(await sut.submit(submit({ text: ' ' }))).toMatchObject({ ok: false, status: CommandStatus.ESME_RINVMSGLEN });
    expect(await sut.submit(submit({ validUntil: new Date(Date.now() - 1_000) }))).toMatchObject({ ok: false, status: CommandStatus.ESME_RINVEXPIRY });
    expect(dispatch.creates).toEqual([]);
  });

  it("answers dispatch's refusal with its SMPP status, naming the error", async () => {
    const dispatch = dispatchStandIn({ '+381641234567': new DomainError('recipient_opted_out', 'the recipient opted out') });
    const { sut } = serviceWith(dispatch.client);

    expect(await sut.submit(submit())).toEqual({ ok: false, status: SMSQ_STATUS.optedOut, detail: 'recipient_opted_out: the recipient opted out' });
  });
});
