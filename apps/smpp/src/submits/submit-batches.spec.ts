import { DomainError, type TasksSendCommand } from '@smsq/contracts';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { SubmitBatches } from './submit-batches.js';

const created = (id: number) => ({ ok: true as const, id, status: 'pending' as const, phone_id: 1, client_id: 7, scheduled_at: '2026-11-28 10:00:00', credits_remaining: 9 });

/** A gateway that answers each call with the next of `answers` (an Error is thrown), recording the commands. */
function gatewayAnswering(answers: Array<unknown>) {
  const commands: TasksSendCommand[] = [];
  const gateway = {
    send: async (_pattern: string, command: TasksSendCommand) => {
      commands.push(command);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ServiceClient;
  return { sut: new SubmitBatches(gateway), commands };
}

describe(SubmitBatches.name, () => {
  it('asks again under the same Idempotency-Key when an answer got lost, and answers each submit from it', async () => {
    const { sut, commands } = gatewayAnswering([new Error('no answer in time'), { results: [created(41)] }]);
    await expect(sut.send(7, true, { recipient: '+381641234567', message: 'hi' })).resolves.toEqual(created(41));
    expect(commands).toHaveLength(2);
    expect(commands[1]).toEqual(commands[0]);
    expect(commands[0]).toMatchObject({ clientId: 7, receipts: true, idempotencyKey: expect.any(String) });
  });

  it('takes a refusal of the whole request as final', async () => {
    const { sut, commands } = gatewayAnswering([new DomainError('invalid_request', 'tasks must be a list')]);
    await expect(sut.send(7, false, { recipient: '+381641234567', message: 'hi' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(commands).toHaveLength(1);
  });
});
