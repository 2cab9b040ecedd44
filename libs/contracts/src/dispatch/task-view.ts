export const TASK_STATUSES = ['pending', 'claimed', 'sent', 'failed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task as its owner may see it. Times are ISO 8601 instants except scheduledAt, the client's local time. */
export interface TaskView {
  id: number;
  clientId: number;
  phoneId: number;
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
  createdAt: string;
  /** How many SMS the message costs the phone (see `countSegments`). */
  segments: number;
}
