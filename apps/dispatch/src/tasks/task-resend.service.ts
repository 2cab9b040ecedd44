import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError, type TaskCreated, type TaskResendCommand } from '@smsq/contracts';
import { isStoredId } from '../database/stored-id.js';
import { resendScheduledLocal } from './resend-schedule.js';
import { TaskCreationService } from './task-creation.service.js';
import { TasksRepository } from './tasks.repository.js';

/**
 * Sends a failed task again as a new task. Everything after the ownership and status checks is the
 * create flow itself, so the new task, its debit and its key keep the one-outcome guarantees, and a
 * repeat of the same command (same task key) answers the task it already made.
 */
@Injectable()
export class TaskResendService {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly creation: TaskCreationService,
  ) {}

  async resend(command: TaskResendCommand): Promise<TaskCreated> {
    // Another client's task is as unknown as a missing one.
    const original = isStoredId(command.clientId) && isStoredId(command.id) ? await this.tasks.findOfClient(command.clientId, command.id) : null;
    if (!original) throw new NotFoundError('task');
    if (original.status !== 'failed') throw new ConflictError(`only a failed task can be sent again; this one is ${original.status}`);

    const now = new Date();
    // Routed afresh (no requested phone): the phone or gateway it failed on may be the reason it failed.
    return this.creation.create({
      taskKey: command.taskKey,
      clientId: command.clientId,
      recipient: original.recipient,
      message: original.message,
      // A sealed message goes again sealed: as plain text its ciphertext would be the SMS.
      ...(original.encrypted ? { encrypted: true } : {}),
      scheduledAt: now.toISOString(),
      scheduledLocal: resendScheduledLocal(original, now),
      deadline: command.deadline,
    });
  }
}
