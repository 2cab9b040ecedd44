import type { Profile } from '@smsq/contracts';
import { loadConfig } from '@smsq/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { readDispatchConfig } from '../config/dispatch-config.js';
import { domainErrorOf } from '../testing/domain-error-of.js';
import { InMemoryPhonesRepository } from '../testing/in-memory-phones.repository.js';
import { InMemoryStore } from '../testing/in-memory-store.js';
import { RecordingDueSignals } from '../testing/recording-due-signals.js';
import { RecordingFailover, failoverOf } from '../testing/recording-failover.js';
import { standIn } from '../testing/stand-in.js';
import { PhoneConditions } from './phone-conditions.js';
import { PhoneHealthService } from './phone-health.service.js';
import { PhonesService } from './phones.service.js';

describe(PhoneHealthService.name, () => {
  let store: InMemoryStore;
  let sut: PhoneHealthService;
  let phones: PhonesService;

  function build(profile: Profile): void {
    const config = loadConfig(readDispatchConfig, { SMSQ_PROFILE: profile });
    const repository = new InMemoryPhonesRepository(store);
    sut = new PhoneHealthService(config, standIn(repository));
    phones = new PhonesService(config, standIn(repository), standIn(new RecordingDueSignals()), new PhoneConditions(config), failoverOf(new RecordingFailover()));
  }

  beforeEach(() => {
    store = new InMemoryStore();
    build('A');
  });

  it('records the health on the phone, with the time of the report, for its views', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });

    await expect(sut.record({ phoneId: phone.id, batteryPercent: 64, charging: true, connection: 'wifi' })).resolves.toEqual({ ok: true });

    const view = await phones.get({ phoneId: phone.id });
    expect(view.health).toEqual({ batteryPercent: 64, charging: true, connection: 'wifi', reportedAt: store.phone(phone.id).healthReportedAt!.toISOString() });
    expect((await phones.list({ clientId: 1 }))[0]!.health).toEqual(view.health);
  });

  it('replaces the last report whole: what the next one leaves out is unknown', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });
    await sut.record({ phoneId: phone.id, batteryPercent: 64, charging: true, connection: 'wifi' });
    const first = store.phone(phone.id).healthReportedAt!;

    await sut.record({ phoneId: phone.id, batteryPercent: 0 });

    const { health } = await phones.get({ phoneId: phone.id });
    expect(health).toMatchObject({ batteryPercent: 0, charging: null, connection: null });
    expect(Date.parse(health!.reportedAt)).toBeGreaterThan(first.getTime());
  });

  it('shows no health, and no last poll, for a phone that never reported or polled', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });

    await expect(phones.get({ phoneId: phone.id })).resolves.toMatchObject({ lastSeenAt: null, health: null });
  });

  it('records on a disabled phone too', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1, active: false });

    await sut.record({ phoneId: phone.id, charging: false });

    expect(store.phone(phone.id).charging).toBe(false);
  });

  it('refuses a report that says nothing', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });

    expect((await domainErrorOf(sut.record({ phoneId: phone.id }))).code).toBe('invalid_request');
    expect(store.phone(phone.id).healthReportedAt).toBeNull();
  });

  it('treats a phone that does not exist, or is of the other profile’s kind, as an invalid token', async () => {
    const phone = store.addPhone({ kind: 'own', clientId: 1 });
    const gateway = store.addPhone({ kind: 'gateway' });

    expect((await domainErrorOf(sut.record({ phoneId: phone.id + 100, charging: true }))).code).toBe('unauthorized');
    expect((await domainErrorOf(sut.record({ phoneId: 2 ** 40, charging: true }))).code).toBe('unauthorized');
    expect((await domainErrorOf(sut.record({ phoneId: gateway.id, charging: true }))).code).toBe('unauthorized');
    build('B');
    expect((await domainErrorOf(sut.record({ phoneId: phone.id, charging: true }))).code).toBe('unauthorized');
    await expect(sut.record({ phoneId: gateway.id, charging: true })).resolves.toEqual({ ok: true });
    expect(store.phone(phone.id).healthReportedAt).toBeNull();
  });
});
