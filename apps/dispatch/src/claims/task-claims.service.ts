import { Injectable, Logger } from '@nestjs/common';
import { DomainError, type Ok, type TaskClaim, type TaskClaimCommand, type TaskReleaseCommand } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { tasksClaimed } from '../metrics/task-counters.js';
import { isSeenRecently, scopeOfBoundToken, scopeOfUnboundToken, type ClaimScope } from './claim-scope.js';
import { ClaimsRepository } from './claims.repository.js';

/**
 * The worker side of a task (DESIGN §3 pending-tasks): a token claims one due task at a time, and
 * a claim its worker never received is put back. The claim holds for `claimTimeoutS`; the lease
 * expiry takes it back after that.
 */
@Injectable()
export class TaskClaimsService {
  private readonly logger = new Logger(TaskClaimsService.name);

  constructor(
    private readonly config: DispatchConfig,
    private readonly claims: ClaimsRepository,
    private readonly signals: DueSignals,
  ) {}

  async claim(command: TaskClaimCommand): Promise<TaskClaim> {
    const scope = await this.scopeOf(command);
    const task = await this.claims.claimNext(scope, command.tokenId, this.config.claimTimeoutS);
    if (task) {
      tasksClaimed.inc();
      return { claimed: true, task };
    }
    // Checked only when nothing was claimed: a claimed task proves an active gateway.
    if (scope.phoneId === null && !(await this.claims.anyActiveGateway())) {
      throw new DomainError('no_active_gateway', 'no active gateway is configured');
    }
    const nextDueAt = await this.claims.nextDueAt(scope);
    return { claimed: false, nextDueAt: nextDueAt?.toISOString() ?? null };
  }

  /** A no-op unless the token still holds the claim: by then it may be reported, expired or someone else's. */
  async release(command: TaskReleaseCommand): Promise<Ok> {
    const phoneId = isStoredId(command.id) && isStoredId(command.tokenId) ? await this.claims.release(command.id, command.tokenId) : null;
    if (phoneId !== null) void this.signals.announce([phoneId]);
    return { ok: true };
  }

  private async scopeOf(command: TaskClaimCommand): Promise<ClaimScope> {
    if (!isStoredId(command.tokenId)) throw new DomainError('unauthorized', 'unknown worker token');
    if (command.phoneId === undefined) return scopeOfUnboundToken(this.config.profile);
    const phone = isStoredId(command.phoneId) ? await this.claims.findPhone(command.phoneId) : null;
    if (phone && !isSeenRecently(phone, new Date())) await this.recordSeen(phone.id);
    return scopeOfBoundToken(this.config.profile, phone);
  }

  /** Only a record for the dashboard: a poll never fails because of it. */
  private async recordSeen(phoneId: number): Promise<void> {
    try {
      await this.claims.markSeen(phoneId);
    } catch (error) {
      this.logger.warn(`last poll of phone ${phoneId} not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
