import type { RouteCandidate } from './routing.repository.js';

/**
 * The gateway pools of one batch of creates, each in least-recently-used order. A gateway is
 * moved to the back of its pool when a task is assigned to it, so the tasks of one batch take
 * turns exactly as the same tasks created one after another would.
 */
export class GatewayPools {
  private readonly pools = new Map<number | null, number[]>();

  constructor(gateways: readonly RouteCandidate[]) {
    for (const gateway of gateways) {
      const pool = this.pools.get(gateway.clientId) ?? [];
      pool.push(gateway.id);
      this.pools.set(gateway.clientId, pool);
    }
  }

  /**
   * The requested gateway when it is in the client's VIP pool, else the least recently used of
   * that pool, else of the shared pool; null when there is none.
   */
  assign(clientId: number, requestedPhoneId: number | undefined): number | null {
    const vip = this.pools.get(clientId) ?? [];
    const pool = vip.length > 0 ? vip : (this.pools.get(null) ?? []);
    const chosen = requestedPhoneId !== undefined && vip.includes(requestedPhoneId) ? requestedPhoneId : pool[0];
    if (chosen === undefined) return null;
    pool.splice(pool.indexOf(chosen), 1);
    pool.push(chosen);
    return chosen;
  }
}
