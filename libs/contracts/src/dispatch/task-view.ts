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
  failedAt: string | null;
  error: string | null;
  createdAt: string;
}
