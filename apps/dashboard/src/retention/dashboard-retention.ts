import type { Prune } from '@smsq/platform';
import type { DashboardConfig } from '../config/dashboard-config.js';

/**
 * What the dashboard deletes once kept long enough (docs/decisions.md, "Retention"): password
 * resets nobody used, a while after they expired. Sessions need nothing: they live in Redis,
 * whose expiry ends them (auth/session-store.ts).
 */
export function dashboardPrunes(config: Pick<DashboardConfig, 'passwordResetRetentionS'>): Prune[] {
  return [
    {
      // At most one row per user: a scan of it costs no more than an index would.
      table: 'dashboard.password_resets',
      what: 'expired password resets',
      key: ['user_id'],
      where: 'pruned.expires_at < $1',
      orderBy: 'pruned.expires_at',
      keepS: config.passwordResetRetentionS,
    },
  ];
}
