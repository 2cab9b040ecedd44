export const TASK_STATUSES = ['pending', 'claimed', 'sent', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * Why a task last moved to another phone: its phone was disabled, went silent, was paused on the
 * carrier's word or reached its daily limit (the failover), or the phone said it sent nothing and
 * another was usable (`retry`).
 */
export const REROUTE_REASONS = ['phone_disabled', 'phone_silent', 'phone_paused', 'phone_full', 'retry'] as const;
export type RerouteReason = (typeof REROUTE_REASONS)[number];

/** `high` ignores the client's send windows and is claimed before `normal` tasks. */
export const TASK_PRIORITIES = ['normal', 'high'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** A task as its owner may see it. Times are ISO 8601 instants except scheduledAt, the client's local time. */
export interface TaskView {
  id: number;
  clientId: number;
  /** The phone it is on now: failover and retries may move it. */
  phoneId: number;
  /** The phone it was first routed to. */
  firstPhoneId: number;
  recipient: string;
  message: string;
  status: TaskStatus;
  scheduledAt: string;
  attempts: number;
  sentAt: string | null;
  /** When the phone reported the carrier's delivery report; the task stays `sent`. */
  deliveredAt: string | null;
  failedAt: string | null;
  error: string | null;
  /** Not sent by then, the task ends failed with the error `expired`; null when it never expires. */
  expiresAt: string | null;
  createdAt: string;
  /** How many SMS the message costs the phone (see `countSegments`); null for an encrypted message its worker has not sent yet. */
  segments: number | null;
  /** The message is sealed end to end (docs/guide/encryption.md): `message` is the ciphertext, readable only with the client's passphrase. */
  encrypted: boolean;
  priority: TaskPriority;
  /** Why it last moved to another phone; null while it is on the phone it was first routed to. */
  reroutedBecause: RerouteReason | null;
}

/** The error of a task not sent by its expiry (`ttl` or `expires_at`, or the server's maximum age). */
export const EXPIRED_ERROR = 'expired';

/**
 * A task as the public API shows it (GET /smsapi/tasks/{id}, and the `data` of a task webhook event):
 * the specification's task fields plus its delivery state, its expiry and what it costs the phone in SMS.
 */
export function taskBody(task: TaskView) {
  return {
    id: task.id,
    status: task.status,
    phone_id: task.phoneId,
    first_phone_id: task.firstPhoneId,
    client_id: task.clientId,
    scheduled_at: task.scheduledAt,
    recipient: task.recipient,
    message: task.message,
    encrypted: task.encrypted,
    attempts: task.attempts,
    sent_at: task.sentAt,
    delivered_at: task.deliveredAt,
    failed_at: task.failedAt,
    error: task.error,
    expires_at: task.expiresAt,
    segments: task.segments,
    priority: task.priority,
    rerouted_because: task.reroutedBecause,
  };
}

export type TaskBody = ReturnType<typeof taskBody>;
