import type { PhoneRegisterCommand, Profile } from '@smsq/contracts';
import { loadConfig } from '@smsq/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { readDispatchConfig } from '../config/dispatch-config.js';
import { InMemoryPhonesRepository } from '../testing/in-memory-phones.repository.js';
import { domainErrorOf } from '../testing/domain-error-of.js';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { RecordingDueSignals } from '../testing/recording-due-signals.js';
import { RecordingFailover, failoverOf } from '../testing/recording-failover.js';
import { standIn } from '../testing/stand-in.js';
import { PhoneConditions } from './phone-conditions.js';
import { PhonesService } from './phones.service.js';

const CLIENT = 4;

function registration(overrides: Partial<PhoneRegisterCommand> = {}): PhoneRegisterCommand {
  return { clientId: CLIENT, name: 'Pixel', phoneLimit: 2, ...overrides };
}

describe(PhonesService.name, () => {
  let store: InMemoryStore;
  let signals: RecordingDueSignals;
  let failover: RecordingFailover;
  let sut: PhonesService;

  function build(profile: Profile): void {
    const config = loadConfig(readDispatchConfig, { SMSQ_PROFILE: profile });
    sut = new PhonesService(config, standIn(new InMemoryPhonesRepository(store)), standIn(signals), new PhoneConditions(config), failoverOf(failover));
  }

  beforeEach(() => {
    store = new InMemoryStore();
    signals = new RecordingDueSignals();
    failover = new RecordingFailover();
    build('A');
  });

  describe('register (Profile A)', () => {
    it('pairs a new, active own phone of the client', async () => {
      const registered = await sut.register(registration({ deviceId: 'device-1', url: 'http://10.0.0.5:8080' }));

      expect(registered.created).toBe(true);
      expect(registered.phone).toMatchObject({ kind: 'own', clientId: CLIENT, name: 'Pixel', deviceId: 'device-1', url: 'http://10.0.0.5:8080', active: true });
    });

    it('returns the known phone of a device again, as it is, without creating one', async () => {
      const first = await sut.register(registration({ deviceId: 'device-1' }));
      store.phone(first.phone.id).active = false;

      const again = await sut.register(registration({ deviceId: 'device-1', name: 'renamed' }));

      expect(again).toMatchObject({ created: false, phone: { id: first.phone.id, active: false, name: 'Pixel' } });
      expect(store.phones).toHaveLength(1);
    });

    it('moves a known device to the new address it registers with, keeping its name and state', async () => {
      const first = await sut.register(registration({ deviceId: 'device-1', url: 'http://192.168.1.20:8080' }));
      store.phone(first.phone.id).active = false;

      const moved = await sut.register(registration({ deviceId: 'device-1', name: 'renamed', url: 'http://192.168.1.31:8080' }));
      const unchanged = await sut.register(registration({ deviceId: 'device-1' }));

      expect(moved).toMatchObject({ created: false, phone: { id: first.phone.id, url: 'http://192.168.1.31:8080', name: 'Pixel', active: false } });
      expect(unchanged.phone.url).toBe('http://192.168.1.31:8080');
      expect(store.phones).toHaveLength(1);
    });

    it('returns a known device even when the client is at its limit', async () => {
      const first = await sut.register(registration({ deviceId: 'device-1' }));
      await sut.register(registration({ deviceId: 'device-2' }));

      await expect(sut.register(registration({ deviceId: 'device-1' }))).resolves.toMatchObject({ created: false, phone: { id: first.phone.id } });
    });

    it('refuses a phone over the plan’s limit, counting disabled phones too', async () => {
      await sut.register(registration());
      const second = await sut.register(registration());
      store.phone(second.phone.id).active = false;

      expect((await domainErrorOf(sut.register(registration()))).code).toBe('phone_limit_reached');
      expect(store.phones).toHaveLength(2);
    });

    it('does not count another client’s phones or gateways against the limit', async () => {
      store.addPhone({ kind: 'own', clientId: CLIENT + 1 });
      store.addPhone({ kind: 'gateway', clientId: CLIENT });

      await expect(sut.register(registration({ phoneLimit: 1 }))).resolves.toMatchObject({ created: true });
    });

    it('is not found in Profile B', async () => {
      build('B');

      expect((await domainErrorOf(sut.register(registration()))).code).toBe('not_found');
      expect(store.phones).toEqual([]);
    });
  });

  describe('createGateway (Profile B)', () => {
    beforeEach(() => build('B'));

    it('adds an active gateway to the client’s VIP pool', async () => {
      await expect(sut.createGateway({ name: 'vip', url: 'http://gw.local', clientId: CLIENT })).resolves.toMatchObject({
        kind: 'gateway',
        clientId: CLIENT,
        url: 'http://gw.local',
        active: true,
      });
    });

    it('adds a gateway without a client to the shared pool', async () => {
      await expect(sut.createGateway({ name: 'shared', url: 'http://gw.local' })).resolves.toMatchObject({ kind: 'gateway', clientId: null });
    });

    it('is not found in Profile A', async () => {
      build('A');

      expect((await domainErrorOf(sut.createGateway({ name: 'g', url: 'http://gw.local' }))).code).toBe('not_found');
    });
  });

  describe('get and setActive', () => {
    it('shows a phone and not_found for an unknown id', async () => {
      const phone = store.addPhone({ kind: 'own', clientId: CLIENT });

      await expect(sut.get({ phoneId: phone.id })).resolves.toMatchObject({ id: phone.id, kind: 'own' });
      expect((await domainErrorOf(sut.get({ phoneId: phone.id + 1 }))).code).toBe('not_found');
    });

    it('disables and enables a phone of the named kind', async () => {
      const phone = store.addPhone({ kind: 'own', clientId: CLIENT });

      await expect(sut.setActive({ phoneId: phone.id, kind: 'own', active: false })).resolves.toEqual({ ok: true });
      expect(store.phone(phone.id).active).toBe(false);
      await sut.setActive({ phoneId: phone.id, kind: 'own', active: true });
      expect(store.phone(phone.id).active).toBe(true);
    });

    it('announces a phone enabled while due tasks wait for it, and nothing otherwise', async () => {
      const waiting = store.addPhone({ kind: 'own', clientId: CLIENT, active: false });
      const idle = store.addPhone({ kind: 'own', clientId: CLIENT, active: false });
      const scheduled = store.addPhone({ kind: 'own', clientId: CLIENT, active: false });
      const task = { clientId: CLIENT, recipient: '+381601234567', message: 'm', scheduledLocal: '2026-01-01 10:00:00' };
      store.addTask({ ...task, taskKey: 'k1', phoneId: waiting.id, scheduledAt: new Date(Date.now() - 1_000) });
      store.addTask({ ...task, taskKey: 'k2', phoneId: scheduled.id, scheduledAt: new Date(Date.now() + 3_600_000) });

      for (const phone of [waiting, idle, scheduled]) await sut.setActive({ phoneId: phone.id, kind: 'own', active: true });
      await sut.setActive({ phoneId: waiting.id, kind: 'own', active: false });

      expect(signals.announced).toEqual([waiting.id]);
    });

    it('never touches a gateway through a phone command, nor a phone through a gateway command', async () => {
      const gateway = store.addPhone({ kind: 'gateway', clientId: null });
      const phone = store.addPhone({ kind: 'own', clientId: CLIENT });

      expect((await domainErrorOf(sut.setActive({ phoneId: gateway.id, kind: 'own', active: false }))).code).toBe('not_found');
      expect((await domainErrorOf(sut.setActive({ phoneId: phone.id, kind: 'gateway', active: false }))).code).toBe('not_found');
      expect(store.phone(gateway.id).active).toBe(true);
      expect(store.phone(phone.id).active).toBe(true);
    });
  });
});
