import type { Phone } from '../generated/prisma/client.js';
import type { RoutingRepository } from '../routing/routing.repository.js';
import type { PublicOf } from './stand-in.js';
import type { InMemoryStore } from './in-memory-store.js';

export class InMemoryRoutingRepository implements PublicOf<RoutingRepository> {
  constructor(private readonly store: InMemoryStore) {}

  async activeOwnPhone(clientId: number, phoneId: number): Promise<number | null> {
    return this.find((phone) => phone.id === phoneId && phone.kind === 'own' && phone.clientId === clientId && phone.active)[0] ?? null;
  }

  async firstActiveOwnPhone(clientId: number): Promise<number | null> {
    return this.find((phone) => phone.kind === 'own' && phone.clientId === clientId && phone.active).sort((a, b) => a - b)[0] ?? null;
  }

  async activeVipGateway(clientId: number, phoneId: number): Promise<number | null> {
    return this.find((phone) => phone.id === phoneId && phone.kind === 'gateway' && phone.clientId === clientId && phone.active)[0] ?? null;
  }

  async leastRecentlyUsedGateway(pool: number | null): Promise<number | null> {
    const gateways = this.store.phones
      .filter((phone) => phone.kind === 'gateway' && phone.clientId === pool && phone.active)
      .sort((a, b) => (a.lastAssignedAt?.getTime() ?? -Infinity) - (b.lastAssignedAt?.getTime() ?? -Infinity) || a.id - b.id);
    return gateways[0]?.id ?? null;
  }

  private find(matches: (phone: Phone) => boolean): number[] {
    return this.store.phones.filter(matches).map((phone) => phone.id);
  }
}
