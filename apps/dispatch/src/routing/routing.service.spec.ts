import { DomainError, type Profile } from '@smsq/contracts';
import { loadConfig } from '@smsq/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { readDispatchConfig } from '../config/dispatch-config.js';
import type { DbTransaction } from '../database/db-transaction.js';
import { FAKE_TRANSACTION } from '../testing/fake-transaction.js';
import { InMemoryRoutingRepository } from '../testing/in-memory-routing.repository.js';
import { domainErrorOf } from '../testing/domain-error-of.js';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { standIn } from '../testing/stand-in.js';
import type { RouteRequest } from './route-request.js';
import { RoutingService } from './routing.service.js';

const CLIENT = 7;
const OTHER_CLIENT = 8;

/** The route of one request: its phone, or the contract's error thrown. */
async function chooseOne(sut: RoutingService, request: RouteRequest, tx?: DbTransaction): Promise<number> {
  const [choice] = await sut.chooseMany([request], tx);
  if (choice instanceof DomainError) throw choice;
  return choice!.phoneId;
}

function routingFor(profile: Profile, store: InMemoryStore): RoutingService {
  return new RoutingService(loadConfig(readDispatchConfig, { SMSQ_PROFILE: profile }), standIn(new InMemoryRoutingRepository(store)));
}

describe(RoutingService.name, () => {
  let store: InMemoryStore;

  beforeEach(() => {
    store = new InMemoryStore();
  });

  describe('Profile A, own phones', () => {
    let sut: RoutingService;

    beforeEach(() => {
      sut = routingFor('A', store);
    });

    it('uses the requested phone when it is an active own phone of the client', async () => {
      store.addPhone({ kind: 'own', clientId: CLIENT });
      const second = store.addPhone({ kind: 'own', clientId: CLIENT });

      await expect(chooseOne(sut, { clientId: CLIENT, requestedPhoneId: second.id })).resolves.toBe(second.id);
    });

    it('uses the first active own phone (lowest id) when none is requested', async () => {
      store.addPhone({ kind: 'own', clientId: CLIENT, active: false });
      const firstActive = store.addPhone({ kind: 'own', clientId: CLIENT });
      store.addPhone({ kind: 'own', clientId: CLIENT });

      await expect(chooseOne(sut, { clientId: CLIENT })).resolves.toBe(firstActive.id);
    });

    it.each([
      ['of another client', () => store.addPhone({ kind: 'own', clientId: OTHER_CLIENT }).id],
      ['that is disabled', () => store.addPhone({ kind: 'own', clientId: CLIENT, active: false }).id],
      ['that is a gateway', () => store.addPhone({ kind: 'gateway', clientId: CLIENT }).id],
      ['that does not exist', () => 999],
      ['beyond any stored id', () => 2 ** 31],
      ['that is zero', () => 0],
      ['that is negative', () => -3],
    ])('ignores a requested phone %s, as if none had been requested', async (_label, requested) => {
      const first = store.addPhone({ kind: 'own', clientId: CLIENT });
      store.addPhone({ kind: 'own', clientId: CLIENT });

      await expect(chooseOne(sut, { clientId: CLIENT, requestedPhoneId: requested() })).resolves.toBe(first.id);
    });

    it('answers no_active_phone when the client has no active own phone', async () => {
      store.addPhone({ kind: 'own', clientId: CLIENT, active: false });
      store.addPhone({ kind: 'own', clientId: OTHER_CLIENT });
      store.addPhone({ kind: 'gateway', clientId: null });

      expect((await domainErrorOf(chooseOne(sut, { clientId: CLIENT }))).code).toBe('no_active_phone');
    });
  });

  describe('Profile B, pooled gateways', () => {
    let sut: RoutingService;

    beforeEach(() => {
      sut = routingFor('B', store);
    });

    it('uses the requested gateway when it is an active VIP gateway of the client', async () => {
      store.addPhone({ kind: 'gateway', clientId: CLIENT });
      const requested = store.addPhone({ kind: 'gateway', clientId: CLIENT });

      await expect(chooseOne(sut, { clientId: CLIENT, requestedPhoneId: requested.id })).resolves.toBe(requested.id);
    });

    it.each([
      ['of another client’s VIP pool', () => store.addPhone({ kind: 'gateway', clientId: OTHER_CLIENT }).id],
      ['of the shared pool', () => store.addPhone({ kind: 'gateway', clientId: null }).id],
      ['that is disabled', () => store.addPhone({ kind: 'gateway', clientId: CLIENT, active: false }).id],
      ['that is an own phone', () => store.addPhone({ kind: 'own', clientId: CLIENT }).id],
      ['beyond any stored id', () => 2 ** 40],
    ])('ignores a requested gateway %s and uses the VIP pool', async (_label, requested) => {
      const vip = store.addPhone({ kind: 'gateway', clientId: CLIENT });

      await expect(chooseOne(sut, { clientId: CLIENT, requestedPhoneId: requested() })).resolves.toBe(vip.id);
    });

    it('prefers the client’s VIP pool over the shared pool', async () => {
      store.addPhone({ kind: 'gateway', clientId: null });
      const vip = store.addPhone({ kind: 'gateway', clientId: CLIENT, lastAssignedAt: store.now() });

      await expect(chooseOne(sut, { clientId: CLIENT })).resolves.toBe(vip.id);
    });

    it('falls back to the shared pool when the VIP pool has no active gateway', async () => {
      store.addPhone({ kind: 'gateway', clientId: CLIENT, active: false });
      store.addPhone({ kind: 'gateway', clientId: OTHER_CLIENT });
      const shared = store.addPhone({ kind: 'gateway', clientId: null });

      await expect(chooseOne(sut, { clientId: CLIENT })).resolves.toBe(shared.id);
    });

    it('takes the gateway assigned a task least recently, a never-used one first', async () => {
      const older = store.addPhone({ kind: 'gateway', clientId: null, lastAssignedAt: store.now() });
      store.addPhone({ kind: 'gateway', clientId: null, lastAssignedAt: store.now() });
      expect(await chooseOne(sut, { clientId: CLIENT })).toBe(older.id);

      const neverUsed = store.addPhone({ kind: 'gateway', clientId: null });
      expect(await chooseOne(sut, { clientId: CLIENT })).toBe(neverUsed.id);
    });

    it('takes turns over the pool as assignments are recorded', async () => {
      const pool = [1, 2, 3].map(() => store.addPhone({ kind: 'gateway', clientId: null }).id);

      const chosen: number[] = [];
      for (let i = 0; i < 6; i++) {
        const phoneId = await chooseOne(sut, { clientId: CLIENT }, FAKE_TRANSACTION);
        // What storing the task on it records (TasksRepository.insertMany).
        store.phone(phoneId).lastAssignedAt = store.now();
        chosen.push(phoneId);
      }

      expect(chosen).toEqual([...pool, ...pool]);
    });

    it('answers no_active_gateway when neither pool has an active gateway', async () => {
      store.addPhone({ kind: 'gateway', clientId: null, active: false });
      store.addPhone({ kind: 'gateway', clientId: OTHER_CLIENT });
      store.addPhone({ kind: 'own', clientId: CLIENT });

      expect((await domainErrorOf(chooseOne(sut, { clientId: CLIENT }))).code).toBe('no_active_gateway');
    });
  });

  it('routes again when the phone it chose was disabled before it could be locked', async () => {
    const first = store.addPhone({ kind: 'gateway', clientId: null });
    const second = store.addPhone({ kind: 'gateway', clientId: null });
    const repository = new InMemoryRoutingRepository(store);
    const lockActive = repository.lockActive.bind(repository);
    let disabled = false;
    repository.lockActive = async (tx, phoneIds) => {
      if (!disabled) {
        disabled = true;
        store.phone(first.id).active = false;
      }
      return lockActive(tx, phoneIds);
    };
    const sut = new RoutingService(loadConfig(readDispatchConfig, { SMSQ_PROFILE: 'B' }), standIn(repository));

    await expect(chooseOne(sut, { clientId: CLIENT }, FAKE_TRANSACTION)).resolves.toBe(second.id);
  });

  it('routes a batch as one request after another: each own rule, least recently used taking turns', async () => {
    const sut = routingFor('B', store);
    const [a, b] = [store.addPhone({ kind: 'gateway', clientId: null }), store.addPhone({ kind: 'gateway', clientId: null })];
    const vip = store.addPhone({ kind: 'gateway', clientId: CLIENT });

    const choices = await sut.chooseMany(
      [{ clientId: OTHER_CLIENT }, { clientId: CLIENT }, { clientId: OTHER_CLIENT, requestedPhoneId: vip.id }, { clientId: OTHER_CLIENT }],
      FAKE_TRANSACTION,
    );

    expect(choices.map((choice) => (choice instanceof DomainError ? choice : choice.phoneId))).toEqual([a.id, vip.id, b.id, a.id]);
  });
});
