import { Patterns, type CreateTasksBody, type TasksChecked } from '@smsq/contracts';
import { SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import type { ServiceClient } from '@smsq/platform';
import { describe, expect, it } from 'vitest';
import { FakeService } from '../testing/fake-services.js';
import { SendService } from './send.service.js';

/** docs/guide/encryption.md's first test vector: what the page sends for an encrypted message. */
const SEALED = SEALED_MESSAGE_TEST_VECTORS[0]!.sealed;
const QUEUED: CreateTasksBody = { results: [{ ok: true, id: 7, status: 'pending', phone_id: 3, client_id: 5, scheduled_at: '2026-11-22 10:00:00', credits_remaining: 29 }] };

describe(SendService.name, () => {
  function make() {
    const gateway = new FakeService('gateway')
      .on(Patterns.gateway.tasksSend, (): CreateTasksBody => QUEUED)
      .on(Patterns.gateway.tasksCheck, (): TasksChecked => ({ results: [{ ok: true, recipient: '+381641234567', message: 'code 1234', scheduled_at: '2026-11-22 10:00:00', segments: 1 }] }));
    return { gateway, sut: new SendService(gateway as unknown as ServiceClient) };
  }

  it('asks for priority "high" when the page ticks it, and says nothing of priority otherwise (create-task’s normal)', async () => {
    const { gateway, sut } = make();

    const sent = await sut.send(5, {
      idempotencyKey: 'k-1',
      messages: [
        { recipient: '+381641234567', message: 'code 1234', priority: 'high' },
        { recipient: '+381641234567', message: 'newsletter', priority: 'normal' },
        { recipient: '+381641234567', message: 'later', scheduledAt: '2026-11-23 09:00' },
      ],
    });

    expect(sent.results[0]).toEqual({ ok: true, id: 7, scheduledAt: '2026-11-22 10:00:00', creditsRemaining: 29 });
    expect(gateway.payloadsOf(Patterns.gateway.tasksSend)).toEqual([
      {
        clientId: 5,
        idempotencyKey: 'k-1',
        tasks: [
          { recipient: '+381641234567', message: 'code 1234', priority: 'high' },
          { recipient: '+381641234567', message: 'newsletter' },
          { recipient: '+381641234567', message: 'later', scheduled_at: '2026-11-23 09:00' },
        ],
      },
    ]);
  });

  it('checks a high-priority message with the same body it would send', async () => {
    const { gateway, sut } = make();

    await sut.check(5, { messages: [{ recipient: '+381641234567', templateId: 4, variables: { code: '1234' }, priority: 'high' }] });

    expect(gateway.payloadsOf(Patterns.gateway.tasksCheck)).toEqual([{ clientId: 5, tasks: [{ recipient: '+381641234567', template_id: 4, variables: { code: '1234' }, priority: 'high' }] }]);
  });

  it('passes a message sealed in the page on as it is, with "encrypted": true, and says nothing of encryption for a plain one', async () => {
    const { gateway, sut } = make();

    await sut.send(5, {
      idempotencyKey: 'k-2',
      messages: [
        { recipient: '+381641234567', message: SEALED, encrypted: true, priority: 'high' },
        { recipient: '+381641234567', message: 'plain', encrypted: false },
      ],
    });

    expect(gateway.payloadsOf(Patterns.gateway.tasksSend)).toEqual([
      {
        clientId: 5,
        idempotencyKey: 'k-2',
        tasks: [
          { recipient: '+381641234567', message: SEALED, encrypted: true, priority: 'high' },
          { recipient: '+381641234567', message: 'plain' },
        ],
      },
    ]);
  });

  it('checks a sealed message with the body it would send, and shows its parts as not known', async () => {
    const { gateway, sut } = make();
    gateway.on(Patterns.gateway.tasksCheck, (): TasksChecked => ({ results: [{ ok: true, recipient: '+381641234567', message: SEALED, scheduled_at: '2026-11-22 10:00:00', segments: null }] }));

    const checked = await sut.check(5, { messages: [{ recipient: '064 123 4567', message: SEALED, encrypted: true }] });

    expect(gateway.payloadsOf(Patterns.gateway.tasksCheck)).toEqual([{ clientId: 5, tasks: [{ recipient: '064 123 4567', message: SEALED, encrypted: true }] }]);
    expect(checked.results).toEqual([{ ok: true, recipient: '+381641234567', message: SEALED, scheduledAt: '2026-11-22 10:00:00', segments: null }]);
  });

  it('leaves a template asked for with encryption to create-task, which refuses it: smsq cannot fill a sealed text', async () => {
    const { gateway, sut } = make();

    await sut.check(5, { messages: [{ recipient: '+381641234567', templateId: 4, variables: { code: '1234' }, encrypted: true }] });

    expect(gateway.payloadsOf(Patterns.gateway.tasksCheck)).toEqual([{ clientId: 5, tasks: [{ recipient: '+381641234567', template_id: 4, variables: { code: '1234' }, encrypted: true }] }]);
  });
});
