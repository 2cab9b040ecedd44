import { DomainError, Patterns, UnavailableError, type TaskCreateBatchCommand, type TaskCreated } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import type { TaskIntakeSettings } from './task-intake-settings.js';
import { CreateBatcher } from './create-batcher.js';

const command = (message: string) => ({
  taskKey: '00000000-0000-4000-8000-000000000000',
  clientId: 7,
  recipient: '+381641234567',
  message,
  scheduledAt: '2026-11-23T10:00:00.000Z',
  scheduledLocal: '2026-11-23 11:00:00',
  deadline: new Date(Date.now() + 7_000).toISOString(),
});

/** Dispatch as a stand-in whose batches stay open until the test answers them. */
function standInDispatch() {
  const batches: Array<{ messages: string[]; answer(failing?: string): void; fail(error: Error): void }> = [];
  const client = {
    async send(pattern: string, payload: TaskCreateBatchCommand) {
      expect(pattern).toBe(Patterns.dispatch.taskCreateBatch);
      return new Promise((resolve, reject) => {
        const messages = payload.creates.map((create) => create.message);
        batches.push({
          messages,
          fail: reject,
          answer: (failing) =>
            resolve({
              results: messages.map((message) =>
                message === failing ? { ok: false, error: { error: 'no_active_phone', detail: 'none' } } : { ok: true, value: { task: { message }, creditsRemaining: 1 } },
              ),
            }),
        });
      });
    },
  };
  return { batches, client: client as unknown as ServiceClient };
}

const config = { createBatchesInFlight: 1 } as TaskIntakeSettings;
const messageOf = (created: TaskCreated) => (created.task as unknown as { message: string }).message;

describe(CreateBatcher.name, () => {
  it('sends a lone create at once, and gathers those that arrive meanwhile into the next batch', async () => {
    const dispatch = standInDispatch();
    const sut = new CreateBatcher(config, dispatch.client);

    const first = sut.create(command('a'));
    const later = ['b', 'c', 'd'].map((message) => sut.create(command(message)));
    expect(dispatch.batches.map((batch) => batch.messages)).toEqual([['a']]);

    dispatch.batches[0]!.answer();
    expect(messageOf(await first)).toBe('a');
    await Promise.resolve();
    expect(dispatch.batches.map((batch) => batch.messages)).toEqual([['a'], ['b', 'c', 'd']]);
    dispatch.batches[1]!.answer('c');

    const settled = await Promise.allSettled(later);
    expect(settled.map((outcome) => (outcome.status === 'fulfilled' ? messageOf(outcome.value) : (outcome.reason as DomainError).code))).toEqual([
      'b',
      'no_active_phone',
      'd',
    ]);
  });

  it('fails every create of a batch whose message got no answer, and goes on with the next', async () => {
    const dispatch = standInDispatch();
    const sut = new CreateBatcher(config, dispatch.client);
    const lost = [sut.create(command('a'))];
    const next = sut.create(command('b'));

    dispatch.batches[0]!.fail(new UnavailableError('the dispatch service did not answer; retry later'));

    await expect(lost[0]).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.resolve();
    dispatch.batches[1]!.answer();
    expect(messageOf(await next)).toBe('b');
  });

  it('keeps as many batches on their way as configured', async () => {
    const dispatch = standInDispatch();
    const sut = new CreateBatcher({ createBatchesInFlight: 2 } as TaskIntakeSettings, dispatch.client);

    for (const message of ['a', 'b', 'c', 'd']) void sut.create(command(message));

    expect(dispatch.batches.map((batch) => batch.messages)).toEqual([['a'], ['b']]);
  });

  it('does not send a create that waited past its deadline, and answers it unavailable', async () => {
    const dispatch = standInDispatch();
    const sut = new CreateBatcher(config, dispatch.client);
    const first = sut.create(command('a'));
    const late = sut.create({ ...command('late'), deadline: new Date(Date.now() + 5).toISOString() });
    const onTime = sut.create(command('b'));

    await new Promise((resolve) => setTimeout(resolve, 10));
    dispatch.batches[0]!.answer();
    await first;

    await expect(late).rejects.toMatchObject({ code: 'unavailable' });
    await Promise.resolve();
    expect(dispatch.batches.map((batch) => batch.messages)).toEqual([['a'], ['b']]);
    dispatch.batches[1]!.answer();
    await onTime;
  });

  it('leaves the outcome of each create open when dispatch refuses a whole batch, and passes a lone create’s refusal on', async () => {
    const dispatch = standInDispatch();
    const sut = new CreateBatcher(config, dispatch.client);
    const lone = sut.create(command('a'));
    const gathered = [sut.create(command('b')), sut.create(command('c'))];

    dispatch.batches[0]!.fail(new DomainError('invalid_request', 'creates.0.recipient is not valid'));
    await expect(lone).rejects.toMatchObject({ code: 'invalid_request' });
    await Promise.resolve();
    dispatch.batches[1]!.fail(new DomainError('invalid_request', 'creates.1.recipient is not valid'));

    for (const create of gathered) await expect(create).rejects.toMatchObject({ code: 'internal_error' });
  });
});
