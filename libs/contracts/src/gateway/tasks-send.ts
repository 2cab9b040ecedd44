import { IsArray, IsOptional, IsString, Length } from 'class-validator';
import { IsEntityId } from '../validation.js';

/** The most items create-tasks takes in one request. */
export const MAX_TASKS_PER_REQUEST = 1000;

/** A create-tasks body may be this large: room for 1,000 of the longest messages in two-byte characters. */
export const CREATE_TASKS_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * create-tasks for a client signed in to the dashboard rather than holding an API key: the
 * gateway applies create-task's rules and charges to each item exactly as for the public API, and
 * answers `CreateTasksBody`. `tasks` is create-task bodies, checked by the gateway item by item.
 */
export class TasksSendCommand {
  @IsEntityId() clientId!: number;
  @IsArray() tasks!: unknown[];
  /** Covers the whole request, as the Idempotency-Key header does. */
  @IsOptional() @IsString() @Length(1, 255) idempotencyKey?: string;
}

/** The same items read by create-task's rules without queuing anything, for a preview: answered `TasksChecked`. */
export class TasksCheckQuery {
  @IsEntityId() clientId!: number;
  @IsArray() tasks!: unknown[];
}

/** create-task's 201 body, field for field as DESIGN.md §3 fixes it. */
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

/** An item that queued nothing and cost nothing: the error create-task would have answered. */
export interface RefusedItemBody {
  ok: false;
  error: string;
  detail: string;
}

/** The 200 body of create-tasks: one entry per item, in the request's order. */
export interface CreateTasksBody {
  results: Array<CreatedTaskBody | RefusedItemBody>;
}

/** An item that create-task's rules accept, as they normalised it. */
export interface CheckedItemBody {
  ok: true;
  recipient: string;
  message: string;
  /** The client's local `YYYY-MM-DD HH:MM:SS` it becomes due. */
  scheduled_at: string;
  /** null for an encrypted message: smsq cannot count what it cannot read. */
  segments: number | null;
}

export interface TasksChecked {
  results: Array<CheckedItemBody | RefusedItemBody>;
}
