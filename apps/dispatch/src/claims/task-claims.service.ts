import { Injectable, Logger } from '@nestjs/common';
import { DomainError, nextWindowOpening, type Ok, type TaskClaim, type TaskClaimBatch, type TaskClaimBatchCommand, type TaskClaimCommand, type TaskReleaseCommand } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { tasksClaimed } from '../metrics/task-counters.js';
import { isSeenRecently, LAST_SEEN_RESOLUTION_MS, scopeOfBoundToken, scopeOfUnboundToken, type ClaimScope } from './claim-scope.js';
import { ClaimsRepository } from './claims.repository.js';

/**
 * The worker side of a task (DESIGN §3 pending-tasks): a token claims one due task, or up to a
 * limit of them at once (`pending-tasks?limit=N`), and a claim its worker never received or never
 * tried is put back. The claim holds for `claimTimeoutS`; the lease expiry takes it back after that.
 */
@Injectable()
export class TaskClaimsService {
  private readonly logger = new Logger(TaskClaimsService.name);
  /** When this instance last recorded an unbound worker's poll as the gateways' contact. */
  private gatewaysContactedAt = 0;

  constructor(
    private readonly config: DispatchConfig,
    private readonly claims: ClaimsRepository,
    private readonly signals: DueSignals,
  ) {}

  /** One due task: the batch of one. */
  async claim(command: TaskClaimCommand): Promise<TaskClaim> {
    const { tasks, nextDueAt } = await this.claimMany({ tokenId: command.tokenId, phoneId: command.phoneId, limit: 1 });
    return tasks[0] ? { claimed: true, task: tasks[0] } : { claimed: false, nextDueAt };
  }

  /** Up to `limit` due tasks in one statement; none, and when the next one is due, when nothing is. */
  async claimMany(command: TaskClaimBatchCommand): Promise<TaskClaimBatch> {
    const scope = await this.scopeOf(command);
    const tasks = await this.claims.claimDue(scope, command.tokenId, this.config.claimTimeoutS, command.limit);
    if (tasks.length > 0) {
      tasksClaimed.inc(tasks.length);
      return { tasks, nextDueAt: null };
    }
    // Checked only when nothing was claimed: a claimed task proves an active gateway.
    if (scope.phoneId === null && !(await this.claims.anyActiveGateway())) {
      throw new DomainError('no_active_gateway', 'no active gateway is configured');
    }
    const nextDueAt = await this.claims.nextDueAt(scope);
    const released = scope.phoneId === null ? null : await this.heldTasksFreeAt(scope.phoneId);
    const earliest = [nextDueAt, released].filter((at) => at !== null).sort((a, b) => a.getTime() - b.getTime())[0];
    return { tasks: [], nextDueAt: earliest?.toISOString() ?? null };
  }

  /**
   * When tasks that wait for a bound token's phone now may go, if a pause or a closed send window
   * holds them: a long poll wakes then, not at its end. Null when none is held.
   */
  private async heldTasksFreeAt(phoneId: number): Promise<Date | null> {
    const hold = await this.claims.holdOf(phoneId);
    if (!hold) return null;
    const now = new Date();
    const windowOpens = hold.windowMinutes && hold.timeZone ? nextWindowOpening(hold.windowMinutes, hold.timeZone, now) : null;
    const free = [hold.pausedUntil, windowOpens].filter((at) => at !== null && at > now) as Date[];
    return free.length === 0 ? null : new Date(Math.max(...free.map((at) => at.getTime())));
  }

  /** A claim its worker never received; a no-op when there is nothing to give back (see `giveBack`). */
  async release(command: TaskReleaseCommand): Promise<Ok> {
    await this.giveBack(command.id, command.tokenId);
    return { ok: true };
  }

  /**
   * Undoes the token's claim of a task its phone never saw, attempt and the phone's day count
   * included, and announces the task due again. False when the token has no claim to give back:
   * it never held the task, the task is reported, or someone claimed it again after its lease.
   */
  async giveBack(id: number, tokenId: number): Promise<boolean> {
    const phoneId = isStoredId(id) && isStoredId(tokenId) ? await this.claims.release(id, tokenId) : null;
    if (phoneId === null) return false;
    void this.signals.announce([phoneId]);
    return true;
  }

  private async scopeOf(command: TaskClaimCommand): Promise<ClaimScope> {
    if (!isStoredId(command.tokenId)) throw new DomainError('unauthorized', 'unknown worker token');
    if (command.phoneId === undefined) {
      const scope = scopeOfUnboundToken(this.config.profile);
      if (Date.now() - this.gatewaysContactedAt >= LAST_SEEN_RESOLUTION_MS) {
        this.gatewaysContactedAt = Date.now();
        await this.recordContact('the gateways', () => this.claims.markGatewaysContacted());
      }
      return scope;
    }
    const phone = isStoredId(command.phoneId) ? await this.claims.findPhone(command.phoneId) : null;
    if (phone && !isSeenRecently(phone, new Date())) await this.recordContact(`phone ${phone.id}`, () => this.claims.markSeen(phone.id));
    return scopeOfBoundToken(this.config.profile, phone);
  }

  /** A poll never fails because its contact was not recorded: the next one records it. */
  private async recordContact(of: string, record: () => Promise<void>): Promise<void> {
    try {
      await record();
    } catch (error) {
      this.logger.warn(`last poll of ${of} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
