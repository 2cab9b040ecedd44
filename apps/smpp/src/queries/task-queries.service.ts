import { Inject, Injectable } from '@nestjs/common';
import { CANCELLED_ERROR, domainErrorFrom, EXPIRED_ERROR, OPTED_OUT_ERROR, Patterns, type TaskCancelCommand, type TaskGetQuery, type TaskView } from '@smsq/contracts';
import { serviceClientToken, type ServiceClient } from '@smsq/platform';
import { CommandStatus, MessageState } from '../protocol/index.js';

export type QueryOutcome = { ok: true; messageState: number; finalDate: Date | undefined; errorCode: number } | { ok: false; status: number };

/** The largest task id: a message_id beyond it (or not digits) names nothing. */
const MAX_TASK_ID = 2_147_483_647;

/** query_sm and cancel_sm: a task's state, and the API's cancel, for the bind's client. */
@Injectable()
export class TaskQueriesService {
  constructor(@Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient) {}

  async query(clientId: number, messageId: string): Promise<QueryOutcome> {
    const id = taskIdOf(messageId);
    if (id === undefined) return { ok: false, status: CommandStatus.ESME_RINVMSGID };
    const query: TaskGetQuery = { clientId, id };
    try {
      const task = await this.dispatch.send<TaskView>(Patterns.dispatch.taskGet, query);
      return { ok: true, ...stateOf(task) };
    } catch (error) {
      return { ok: false, status: domainErrorFrom(error)?.code === 'not_found' ? CommandStatus.ESME_RINVMSGID : CommandStatus.ESME_RQUERYFAIL };
    }
  }

  /** Cancels as `POST /smsapi/tasks/{id}/cancel` does: only a task no worker was handed, refunded once. */
  async cancel(clientId: number, messageId: string): Promise<number> {
    const id = taskIdOf(messageId);
    if (id === undefined) return CommandStatus.ESME_RINVMSGID;
    const command: TaskCancelCommand = { clientId, id };
    try {
      await this.dispatch.send<TaskView>(Patterns.dispatch.taskCancel, command);
      return CommandStatus.ESME_ROK;
    } catch (error) {
      return domainErrorFrom(error)?.code === 'not_found' ? CommandStatus.ESME_RINVMSGID : CommandStatus.ESME_RCANCELFAIL;
    }
  }
}

function taskIdOf(messageId: string): number | undefined {
  if (!/^\d{1,10}$/.test(messageId)) return undefined;
  const id = Number(messageId);
  return id >= 1 && id <= MAX_TASK_ID ? id : undefined;
}

/** A task's state in SMPP's words (docs/guide/smpp.md): final states carry the time they were reached. */
function stateOf(task: TaskView): { messageState: number; finalDate: Date | undefined; errorCode: number } {
  const at = (instant: string | null) => (instant ? new Date(instant) : undefined);
  switch (task.status) {
    case 'pending':
    case 'claimed':
      return { messageState: MessageState.ENROUTE, finalDate: undefined, errorCode: 0 };
    case 'sent':
      return task.deliveredAt ? { messageState: MessageState.DELIVERED, finalDate: at(task.deliveredAt), errorCode: 0 } : { messageState: MessageState.ACCEPTED, finalDate: at(task.sentAt), errorCode: 0 };
    case 'failed':
      if (task.error === EXPIRED_ERROR) return { messageState: MessageState.EXPIRED, finalDate: at(task.failedAt), errorCode: 2 };
      if (task.error === CANCELLED_ERROR || task.error === OPTED_OUT_ERROR) return { messageState: MessageState.REJECTED, finalDate: at(task.failedAt), errorCode: 3 };
      return { messageState: MessageState.UNDELIVERABLE, finalDate: at(task.failedAt), errorCode: 1 };
  }
}
