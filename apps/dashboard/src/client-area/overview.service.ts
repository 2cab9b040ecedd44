import { Injectable } from '@nestjs/common';
import type { Overview } from '@smsq/dashboard-api';
import { ClientDirectory } from '../shared/client-directory.js';

@Injectable()
export class OverviewService {
  constructor(private readonly directory: ClientDirectory) {}

  /** Credits now and the last 30 days counted in the client's own time zone. */
  async overview(clientId: number): Promise<Overview> {
    const { client, account } = await this.directory.details(clientId);
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
    };
  }
}
