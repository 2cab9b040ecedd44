import { IsIn, IsISO8601 } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** The task events an SMPP delivery receipt reports. */
export const RECEIPT_EVENTS = ['task.sent', 'task.delivered', 'task.failed', 'task.expired', 'task.cancelled'] as const;
export type ReceiptEvent = (typeof RECEIPT_EVENTS)[number];

/**
 * A task submitted over SMPP with a delivery receipt asked for reached `event`: relayed from
 * dispatch's outbox (so at least once); the SMPP service keeps one receipt per task and event
 * until a receiver bind of the client takes it. Answered `Ok`.
 */
export class SmppTaskEndedCommand {
  @IsEntityId() taskId!: number;
  @IsEntityId() clientId!: number;
  @IsIn(RECEIPT_EVENTS) event!: ReceiptEvent;
  @IsISO8601({ strict: true }) at!: string;
}
