import type { Profile, TaskCreated, TaskView } from '@smsq/contracts';

/** The 201 body of create-task, field for field as DESIGN.md §3 fixes it. */
export interface CreatedTaskBody {
  ok: true;
  id: number;
  status: 'pending';
  phone_id: number;
  client_id: number;
  charged?: true;
  scheduled_at: string;
  credits_remaining: number;
}

export function createdTaskBody(created: TaskCreated, profile: Profile): CreatedTaskBody {
  const { task } = created;
  return {
    ok: true,
    id: task.id,
    status: 'pending',
    phone_id: task.phoneId,
    client_id: task.clientId,
    ...(profile === 'A' ? { charged: true as const } : {}),
    scheduled_at: task.scheduledAt,
    credits_remaining: created.creditsRemaining,
  };
}

/** GET /smsapi/tasks/{id}: the specification's task fields plus its delivery state and what it costs the phone in SMS. */
export function taskBody(task: TaskView) {
  return {
    id: task.id,
    status: task.status,
    phone_id: task.phoneId,
    client_id: task.clientId,
    scheduled_at: task.scheduledAt,
    recipient: task.recipient,
    message: task.message,
    attempts: task.attempts,
    sent_at: task.sentAt,
    delivered_at: task.deliveredAt,
    failed_at: task.failedAt,
    error: task.error,
    segments: task.segments,
  };
}
