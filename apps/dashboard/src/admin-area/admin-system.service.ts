import { Inject, Injectable } from '@nestjs/common';
import { Patterns, pingPattern, type ServiceName, type SystemStats, type SystemStatsQuery } from '@smsq/contracts';
import type { SystemOverview } from '@smsq/dashboard-api';
import { ServiceClient, serviceClientToken } from '@smsq/platform';

const PING_TIMEOUT_MS = 1_500;
const STATS_MINUTES = 60;
/** The page answers within a few seconds even while dispatch is down. */
const STATS_TIMEOUT_MS = 3_000;

/** The system page: task counts from dispatch and whether each service consumes its queue. */
@Injectable()
export class AdminSystemService {
  private readonly services: ServiceClient[];

  constructor(
    @Inject(serviceClientToken('gateway')) gateway: ServiceClient,
    @Inject(serviceClientToken('billing')) billing: ServiceClient,
    @Inject(serviceClientToken('dispatch')) private readonly dispatch: ServiceClient,
    @Inject(serviceClientToken('inbox')) inbox: ServiceClient,
  ) {
    this.services = [gateway, billing, dispatch, inbox];
  }

  /** A service that is down shows as such; the page still answers, with empty counts if dispatch is the one down. */
  async overview(): Promise<SystemOverview> {
    const query: SystemStatsQuery = { minutes: STATS_MINUTES };
    const [stats, services] = await Promise.all([
      this.dispatch.send<SystemStats>(Patterns.dispatch.systemStats, query, { timeoutMs: STATS_TIMEOUT_MS }).catch(() => null),
      Promise.all(this.services.map((client) => this.readiness(client))),
    ]);
    return {
      tasksByStatus: stats?.tasksByStatus ?? { pending: 0, claimed: 0, sent: 0, failed: 0 },
      sentPerMinute: stats?.sentPerMinute ?? [],
      services,
    };
  }

  private async readiness(client: ServiceClient): Promise<SystemOverview['services'][number]> {
    try {
      await client.send(pingPattern(client.service as ServiceName), {}, { timeoutMs: PING_TIMEOUT_MS });
      return { name: client.service, ready: true, detail: 'ok' };
    } catch (error) {
      return { name: client.service, ready: false, detail: error instanceof Error && 'detail' in error ? String(error.detail) : 'no answer' };
    }
  }
}
