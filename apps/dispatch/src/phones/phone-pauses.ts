import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError, type PauseReason, type PhoneResumeCommand, type PhoneView } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { DueSignals } from '../due-signals/due-signals.js';
import { PhoneFailover } from '../failover/phone-failover.js';
import { PhoneConditions } from './phone-conditions.js';
import { PhoneEvents } from './phone-events.js';
import { toPhoneView } from './phone-view.js';
import { PhonesRepository } from './phones.repository.js';

/**
 * A phone the carrier (or Android) refused for volume rests: it is paused, 1 minute, then 5, 15
 * and 60 on repeats within a day (SMSQ_PAUSE_STEPS_S), takes no claims and no new tasks meanwhile,
 * and its waiting tasks that no client pinned move to other usable phones. The pause ends by
 * itself (`PhoneStateWatch`) or at its owner's word. Each pause and each end is told to the owner
 * (`phone.paused`, `phone.resumed`).
 */
@Injectable()
export class PhonePauses {
  private readonly logger = new Logger(PhonePauses.name);

  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: PhonesRepository,
    private readonly events: PhoneEvents,
    private readonly conditions: PhoneConditions,
    private readonly failover: PhoneFailover,
    private readonly signals: DueSignals,
  ) {}

  /**
   * Pauses the phone unless it is paused already; whether this paused it. Its waiting tasks start
   * moving once the pause is in, without holding up the caller (the failover sweep moves what this does not).
   */
  async pause(phoneId: number, reason: PauseReason): Promise<boolean> {
    const paused = await this.phones.inTransaction(async (tx) => {
      const phone = await this.phones.pause(phoneId, reason, this.config.pauseStepsS, tx);
      if (phone) await this.events.announce(tx, 'phone.paused', [phone]);
      return phone !== null;
    });
    if (!paused) return false;
    this.logger.warn(`phone ${phoneId} paused: the carrier refused its sends for volume`);
    this.failover.moveFrom(phoneId).catch((error: unknown) => {
      this.logger.warn(`waiting tasks of paused phone ${phoneId} left to the failover sweep: ${error instanceof Error ? error.message : String(error)}`);
    });
    return true;
  }

  /** Its owner (or an admin, without clientId) lifts the pause now. A phone that is not paused is answered as it is. */
  async resume(command: PhoneResumeCommand): Promise<PhoneView> {
    if (!isStoredId(command.phoneId) || (command.clientId !== undefined && !isStoredId(command.clientId))) throw new NotFoundError(command.kind === 'own' ? 'phone' : 'gateway');
    const resumed = await this.phones.inTransaction(async (tx) => {
      const phone = await this.phones.resume(command.phoneId, command.kind, tx, command.clientId);
      if (phone) await this.events.announce(tx, 'phone.resumed', [phone]);
      return phone !== null;
    });
    const phone = await this.phones.findById(command.phoneId);
    if (!phone || phone.kind !== command.kind || (command.clientId !== undefined && phone.clientId !== command.clientId)) throw new NotFoundError(command.kind === 'own' ? 'phone' : 'gateway');
    if (resumed) {
      this.logger.log(`phone ${phone.id} resumed by its owner`);
      if (await this.phones.hasDueTasks(phone.id)) await this.signals.announce([phone.id]);
    }
    return toPhoneView(phone, this.conditions);
  }
}
