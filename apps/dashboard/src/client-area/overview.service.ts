import { Injectable } from '@nestjs/common';
import type { Overview } from '@smsq/dashboard-api';
import { DashboardConfig } from '../config/dashboard-config.js';
import { ClientDirectory } from '../shared/client-directory.js';
import { PhonesService } from './phones.service.js';

@Injectable()
export class OverviewService {
  constructor(
    private readonly config: DashboardConfig,
    private readonly directory: ClientDirectory,
    private readonly phones: PhonesService,
  ) {}

  /** Credits now, the last 30 days counted in the client's own time zone, and its silent phones (Profile A). */
  async overview(clientId: number): Promise<Overview> {
    const [{ client, account }, silentPhones] = await Promise.all([this.directory.details(clientId), this.config.profile === 'A' ? this.phones.silent(clientId) : []]);
    return {
      clientId: client.id,
      clientName: client.name,
      plan: account.plan,
      dailyAllowance: account.dailyAllowance,
      dailyRemaining: account.dailyRemaining,
      bonusRemaining: account.bonusRemaining,
      creditsRemaining: account.creditsRemaining,
      periodEndsAt: account.periodEndsAt,
      days: await this.directory.chart(client.id, client.timezone),
      timeZone: client.timezone,
      silentPhones,
    };
  }
}
