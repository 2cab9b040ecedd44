import { randomUUID } from 'node:crypto';
import type { TaskCreateCommand } from '@smsq/contracts';

/** A valid create command as the gateway sends it, due now, with a fresh task key. */
export function taskCreateCommand(overrides: Partial<TaskCreateCommand> = {}): TaskCreateCommand {
  return {
    taskKey: randomUUID(),
    clientId: 1,
    recipient: '+381601234567',
    message: 'hello',
    scheduledAt: '2026-11-22T10:00:00.000Z',
    scheduledLocal: '2026-11-22 11:00:00',
    deadline: new Date(Date.now() + 30_000).toISOString(),
    ...overrides,
  };
}
