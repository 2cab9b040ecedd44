import { Inject, Injectable } from '@nestjs/common';
import { Patterns, type CreateTasksBody, type TasksChecked, type TasksCheckQuery, type TasksSendCommand } from '@smsq/contracts';
import type { CheckResult, SendResult } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';
import type { OutgoingSmsBody, SendBody, SendCheckBody } from './dto/send.body.js';

/** Long enough for a thousand creates through the batches, and their settling when an answer is late. */
const SEND_TIMEOUT_MS = 30_000;

/**
 * Send SMS and Send to many: the gateway queues the messages with create-task's rules and
 * charges, as if the client had called create-tasks with its key.
 */
@Injectable()
export class SendService {
  constructor(@Inject(serviceClientToken('gateway')) private readonly gateway: ServiceClient) {}

  send(clientId: number, body: SendBody): Promise<{ results: SendResult[] }> {
    return this.sendBodies(clientId, body.messages.map(createTaskBodyOf), body.idempotencyKey);
  }

  /** create-task bodies, as the public API takes them, under one key for the retries of the same send. */
  async sendBodies(clientId: number, tasks: Record<string, unknown>[], idempotencyKey: string): Promise<{ results: SendResult[] }> {
    const command: TasksSendCommand = { clientId, tasks, idempotencyKey };
    const answer = await this.gateway.send<CreateTasksBody>(Patterns.gateway.tasksSend, command, { timeoutMs: SEND_TIMEOUT_MS });
    return {
      results: answer.results.map((result): SendResult => (result.ok ? { ok: true, id: result.id, scheduledAt: result.scheduled_at, creditsRemaining: result.credits_remaining } : result)),
    };
  }

  async check(clientId: number, body: SendCheckBody): Promise<{ results: CheckResult[] }> {
    const query: TasksCheckQuery = { clientId, tasks: body.messages.map(createTaskBodyOf) };
    const answer = await this.gateway.send<TasksChecked>(Patterns.gateway.tasksCheck, query);
    return {
      results: answer.results.map((result): CheckResult =>
        result.ok ? { ok: true, recipient: result.recipient, message: result.message, scheduledAt: result.scheduled_at, segments: result.segments } : result,
      ),
    };
  }
}

/**
 * The page's message as a create-task body; an empty time means "now", as create-task reads it;
 * `normal` and not encrypted are create-task's defaults, so only `high` and `encrypted` are said.
 * `encrypted` goes with a template too, for create-task to refuse: smsq cannot fill a sealed text.
 */
function createTaskBodyOf(sms: OutgoingSmsBody): Record<string, unknown> {
  const text = sms.templateId === undefined ? { message: sms.message } : { template_id: sms.templateId, variables: sms.variables ?? {} };
  return {
    recipient: sms.recipient,
    ...text,
    ...(sms.encrypted ? { encrypted: true } : {}),
    ...(sms.scheduledAt?.trim() ? { scheduled_at: sms.scheduledAt } : {}),
    ...(sms.priority === 'high' ? { priority: 'high' } : {}),
  };
}
