import { Injectable } from '@nestjs/common';
import { DomainError, InvalidRequestError, type Ok, type PhoneHealthReportCommand } from '@smsq/contracts';
import { DispatchConfig } from '../config/dispatch-config.js';
import { isStoredId } from '../database/stored-id.js';
import { PHONE_KIND_OF_PROFILE } from './phone-kind.js';
import { PhonesRepository, type ReportedHealth } from './phones.repository.js';

/**
 * What a phone or gateway reports of itself (battery, charging, connection), kept on its row for
 * the dashboard. A report replaces the last one whole, so nothing it left out looks current. A
 * disabled phone still reports: it shows that it is alive.
 */
@Injectable()
export class PhoneHealthService {
  constructor(
    private readonly config: DispatchConfig,
    private readonly phones: PhonesRepository,
  ) {}

  /** The phone must exist as this profile's kind, as for a claim: otherwise its token is not a valid one. */
  async record(command: PhoneHealthReportCommand): Promise<Ok> {
    const health: ReportedHealth = {
      batteryPercent: command.batteryPercent ?? null,
      charging: command.charging ?? null,
      connection: command.connection ?? null,
    };
    if (health.batteryPercent === null && health.charging === null && health.connection === null) {
      throw new InvalidRequestError('a health report needs battery_percent, charging or connection');
    }
    const recorded = isStoredId(command.phoneId) && (await this.phones.recordHealth(command.phoneId, PHONE_KIND_OF_PROFILE[this.config.profile], health));
    if (!recorded) throw new DomainError('unauthorized', 'the phone of this worker token does not exist');
    return { ok: true };
  }
}
