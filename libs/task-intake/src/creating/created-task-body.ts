import type { CreatedTaskBody, Profile, TaskCreated } from '@smsq/contracts';

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
