import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_CLAIM_BATCH } from '../gateway/public-limits.js';
import { IsEntityId } from '../validation.js';

/**
 * A worker token asks for one due task. `phoneId` is the phone or gateway the token is bound to;
 * without one (Profile B only) the token may take any due task.
 */
export class TaskClaimCommand {
  @IsEntityId() tokenId!: number;
  @IsOptional() @IsEntityId() phoneId?: number;
}

/** What a worker needs to deliver one task; times are ISO 8601 instants except scheduledAt (local). */
export interface ClaimedTask {
  id: number;
  recipient: string;
  message: string;
  phoneId: number;
  clientId: number;
  scheduledAt: string;
  gatewayUrl: string | null;
  /** The claims of this task so far, this one included (1 on the first). */
  attempt: number;
  claimExpiresAt: string;
  /** The pace its phone is set to keep (SMS parts per minute); null when smsq sets none. */
  perMinute: number | null;
  /** The longest random extra pause its phone takes before this send, seconds; null when none. */
  jitter: number | null;
  /** The SIM to send from (1 or 2) where the phone has two and sticky chose one; null: the phone's default. */
  sim: number | null;
  /** SMS parts the message costs, what the phone's limits count; for an encrypted message 1 until its worker reports the real count. */
  parts: number;
  /** The message is sealed: the worker opens it with the client's passphrase before sending, and reports its parts. */
  encrypted: boolean;
}

/**
 * Either a task, or nothing due now; then `nextDueAt` is when the earliest scheduled task this
 * token could take becomes due (null if none), so a long poll can sleep until then.
 */
export type TaskClaim = { claimed: true; task: ClaimedTask } | { claimed: false; nextDueAt: string | null };

/**
 * A worker token asks for up to `limit` due tasks at once (`pending-tasks?limit=N`, `task-statuses`'
 * `next`). The same claim as `TaskClaimCommand`, which is its case of one.
 */
export class TaskClaimBatchCommand extends TaskClaimCommand {
  @IsInt() @Min(1) @Max(MAX_CLAIM_BATCH) limit!: number;
}

/**
 * The tasks claimed, oldest scheduled first, at most the limit asked; none when nothing is due, and
 * then `nextDueAt` as in `TaskClaim`.
 */
export interface TaskClaimBatch {
  tasks: ClaimedTask[];
  nextDueAt: string | null;
}

/** A claim the worker never received (it went away mid-poll) goes back to pending, uncounted. */
export class TaskReleaseCommand {
  @IsEntityId() tokenId!: number;
  @IsInt() @Min(1) id!: number;
}
