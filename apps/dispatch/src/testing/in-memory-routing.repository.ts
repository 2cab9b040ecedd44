import type { Phone } from '../generated/prisma/client.js';
import type { Pool, RouteCandidate, RoutingRepository } from '../routing/routing.repository.js';
import type { PublicOf } from './stand-in.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryRoutingRepository implements PublicOf<RoutingRepository> {
  constructor(private readonly store: InMemoryStore) {}

  async activeOwnPhones(clientIds: readonly number[]): Promise<RouteCandidate[]> {
    return this.find((phone) => phone.kind === 'own' && phone.clientId !== null && clientIds.includes(phone.clientId) && phone.active).sort(
      (a, b) => a.id - b.id,
    );
  }

  async activeGateways(pools: readonly Pool[]): Promise<RouteCandidate[]> {
    return this.find((phone) => phone.kind === 'gateway' && pools.includes(phone.clientId) && phone.active).sort(
      (a, b) => (a.lastAssignedAt?.getTime() ?? -Infinity) - (b.lastAssignedAt?.getTime() ?? -Infinity) || a.id - b.id,
    );
  }

  /** The fakes run one transaction at a time per key: there is nothing to lock. */
  async lockPools(): Promise<void> {}

  async recordAssignments(_tx: unknown, phoneIds: readonly number[]): Promise<void> {
    for (const id of phoneIds) this.store.phone(id).lastAssignedAt = this.store.now();
  }

  async lockActive(_tx: unknown, phoneIds: readonly number[]): Promise<number[]> {
    return this.find((phone) => phoneIds.includes(phone.id) && phone.active).map((phone) => phone.id);
  }

  private find(matches: (phone: Phone) => boolean): Array<RouteCandidate & { lastAssignedAt: Date | null }> {
    return this.store.phones
      .filter(matches)
      .map((phone) => ({ id: phone.id, clientId: phone.clientId, usable: !this.store.silentPhoneIds.has(phone.id), lastAssignedAt: phone.lastAssignedAt }));
  }
}
