import type { RouteRequest } from './route-request.js';
import type { RouteCandidate } from './routing.repository.js';

/**
 * The gateway pools of one batch of routes, each in least-recently-used order. A gateway is moved
 * to the back of its pool when a task is assigned to it, so the tasks of one batch take turns
 * exactly as the same tasks routed one after another would.
 */
export class GatewayPools {
  private readonly pools = new Map<number | null, RouteCandidate[]>();

  constructor(gateways: readonly RouteCandidate[]) {
    for (const gateway of gateways) {
      const pool = this.pools.get(gateway.clientId) ?? [];
      pool.push(gateway);
      this.pools.set(gateway.clientId, pool);
    }
  }

  /**
   * The requested gateway when it is in the client's VIP pool; else the least recently used
   * usable gateway of that pool, else of the shared pool; else, with `fallBack`, the least
   * recently used of the VIP pool, else of the shared pool, whatever their contact (DESIGN §2).
   * Null when there is none.
   */
  assign({ clientId, requestedPhoneId, avoidPhoneId }: RouteRequest, fallBack: boolean): number | null {
    const vip = this.pools.get(clientId) ?? [];
    const shared = this.pools.get(null) ?? [];
    const preferred = (gateway: RouteCandidate) => gateway.usable && gateway.id !== avoidPhoneId;
    const chosen =
      vip.find((gateway) => gateway.id === requestedPhoneId) ??
      vip.find(preferred) ??
      shared.find(preferred) ??
      (fallBack ? (vip[0] ?? shared[0]) : undefined);
    if (chosen === undefined) return null;
    const pool = this.pools.get(chosen.clientId)!;
    pool.splice(pool.indexOf(chosen), 1);
    pool.push(chosen);
    return chosen.id;
  }
}
