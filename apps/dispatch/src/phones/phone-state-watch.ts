import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RepeatingJob } from '@smsq/platform';
import { DueSignals } from '../due-signals/due-signals.js';
import { PhoneEvents } from './phone-events.js';
import { PhonesRepository } from './phones.repository.js';

export const PHONE_WATCH_INTERVAL_MS = 5_000;

/**
 * Tells each phone's owner when it goes silent and when it is back (`phone.silent`,
 * `phone.online` webhook events, signed and retried like every event), and when its pause on the
 * carrier's word is over (`phone.resumed`). A phone is announced silent once per silence, back
 * once, resumed once, whichever dispatch instance sees it first. A phone disabled while silent is
 * not announced back: it is not online.
 */
@Injectable()
export class PhoneStateWatch implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PhoneStateWatch.name);
  private readonly job = new RepeatingJob('phone state watch', PHONE_WATCH_INTERVAL_MS, () => this.watchOnce(), this.logger);

  constructor(
    private readonly phones: PhonesRepository,
    private readonly events: PhoneEvents,
    private readonly signals: DueSignals,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** The phones announced by this round: those that went silent, those back online, and those whose pause ended. */
  async watchOnce(): Promise<{ silent: number[]; online: number[]; resumed: number[] }> {
    const announced = await this.phones.transitions(async ({ silent, back }, tx) => {
      const online = back.filter((phone) => phone.active);
      const resumed = await this.phones.resumeEnded(tx);
      await this.events.announce(tx, 'phone.silent', silent);
      await this.events.announce(tx, 'phone.online', online);
      await this.events.announce(tx, 'phone.resumed', resumed);
      return { silent: silent.map((phone) => phone.id), online: online.map((phone) => phone.id), resumed: resumed.map((phone) => phone.id) };
    });
    for (const id of announced.silent) this.logger.warn(`phone ${id} went silent: no contact for SMSQ_PHONE_SILENT_S`);
    for (const id of announced.online) this.logger.log(`phone ${id} is back online`);
    for (const id of announced.resumed) this.logger.log(`phone ${id} resumed: its pause on the carrier's word is over`);
    if (announced.resumed.length > 0) void this.signals.announce(announced.resumed);
    return announced;
  }
}
