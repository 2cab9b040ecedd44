import type { Prune } from '@smsq/platform';
import type { GatewayConfig } from '../config/gateway-config.js';

/**
 * What the gateway deletes once kept long enough (docs/decisions.md, "Retention"): idempotency
 * records past the replay window, by the same rule that stops replaying them, so a record is
 * never pruned while it can still be replayed. Abandoned creates delete themselves once settled.
 */
export function gatewayPrunes(config: Pick<GatewayConfig, 'idempotencyReplayS'>): Prune[] {
  return [
    {
      table: 'gateway.idempotency_records',
      what: 'idempotency records past their replay window',
      key: ['client_id', 'key'],
      where: 'pruned.created_at < $1',
      orderBy: 'pruned.created_at',
      keepS: config.idempotencyReplayS,
    },
  ];
}
