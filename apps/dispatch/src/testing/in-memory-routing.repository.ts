import type { Phone } from '../generated/prisma/client.js';
import type { Assignment, ClientRouting, Pool, RouteCandidate, RoutingRepository, StickyPhone } from '../routing/routing.repository.js';
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
    return this.find((phone) => phone.kind === 'gateway' && pools.includes(phone.clientId) && phone.active).sort((a, b) => a.lruRank - b.lruRank);
  }

  /** The fakes run one transaction at a time per key: there is nothing to lock. */
  async lockPools(): Promise<void> {}

  async recordAssignments(_tx: unknown, assignments: readonly Assignment[]): Promise<void> {
    for (const { phoneId } of assignments) this.store.phone(phoneId).lastAssignedAt = this.store.now();
  }

  /** The fakes route every client `first`, with no sticky recipients or capped phones. */
  async routingOf(): Promise<ClientRouting[]> {
    return [];
  }

  async stickyPhonesOf(): Promise<StickyPhone[]> {
    return [];
  }

  async knownRecipients(): Promise<Set<string>> {
    return new Set();
  }


  async lockActive(_tx: unknown, phoneIds: readonly number[]): Promise<number[]> {
    return this.find((phone) => phoneIds.includes(phone.id) && phone.active).map((phone) => phone.id);
  }

  private find(matches: (phone: Phone) => boolean): RouteCandidate[] {
    const byLastAssignment = [...this.store.phones].sort(
      (a, b) => (a.lastAssignedAt?.getTime() ?? -Infinity) - (b.lastAssignedAt?.getTime() ?? -Infinity) || a.id - b.id,
    );
    return this.store.phones.filter(matches).map((phone) => ({
      id: phone.id,
      clientId: phone.clientId,
      usable: !this.store.silentPhoneIds.has(phone.id),
      room: null,
      cap: null,
      monthCount: 0,
      sims: phone.sims,
      lruRank: byLastAssignment.indexOf(phone) + 1,
    }));
  }
}
