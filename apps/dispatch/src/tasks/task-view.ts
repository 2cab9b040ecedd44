import { countSegments, type RerouteReason, type TaskView } from '@smsq/contracts';
import type { Task } from '../generated/prisma/client.js';

/** A task as its owner sees it: scheduledAt is its instant's local time in the client's zone (task-columns.ts). */
export function toTaskView(task: Task): TaskView {
  return {
    id: task.id,
    clientId: task.clientId,
    phoneId: task.phoneId,
    firstPhoneId: task.firstPhoneId ?? task.phoneId,
    recipient: task.recipient,
    message: task.message,
    status: task.status,
    scheduledAt: task.scheduledLocal,
    attempts: task.attempts,
    sentAt: task.sentAt?.toISOString() ?? null,
    deliveredAt: task.deliveredAt?.toISOString() ?? null,
    failedAt: task.failedAt?.toISOString() ?? null,
    error: task.error,
    expiresAt: task.expiresAt?.toISOString() ?? null,
    createdAt: task.createdAt.toISOString(),
    segments: segmentsOf(task),
    encrypted: task.encrypted,
    priority: task.highPriority ? 'high' : 'normal',
    reroutedBecause: task.reroutedBecause as RerouteReason | null,
  };
}

/** What the message costs the phone: counted from its text, or for a sealed one as its worker reported (null before). */
function segmentsOf(task: Pick<Task, 'message' | 'encrypted' | 'parts' | 'partsKnown'>): number | null {
  if (!task.encrypted) return countSegments(task.message);
  return task.partsKnown ? task.parts : null;
}
