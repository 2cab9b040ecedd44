import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { RoutingService } from './routing.service.js';

describe(`${RoutingService.name} on Postgres`, () => {
  let database: TestDatabase;
  let profileA: DispatchUnderTest;
  let profileB: DispatchUnderTest;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    profileA = await dispatchUnderTest(database.url, 'A');
    profileB = await dispatchUnderTest(database.url, 'B');
  });

  afterAll(async () => {
    await profileA?.close();
    await profileB?.close();
    await database?.drop();
  });

  beforeEach(async () => {
    await profileB.db.$executeRaw`TRUNCATE "dispatch"."tasks", "dispatch"."phones", "dispatch"."voided_task_keys" RESTART IDENTITY`;
  });

  async function taskCountsByPhone(): Promise<Map<number, number>> {
    const rows = await profileB.db.task.groupBy({ by: ['phoneId'], _count: { _all: true } });
    return new Map(rows.map((row) => [row.phoneId, row._count._all]));
  }

  it('spreads concurrent creates evenly over the shared pool, least recently used first', async () => {
    const gateways = await Promise.all(
      ['g1', 'g2', 'g3'].map((name) => profileB.phones.createGateway({ name, url: `http://${name}.local` })),
    );

    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => profileB.creation.create(taskCreateCommand({ clientId: 100 + i }))));

    expect(created).toHaveLength(30);
    const counts = await taskCountsByPhone();
    expect(gateways.map((gateway) => counts.get(gateway.id))).toEqual([10, 10, 10]);
  });

  it('prefers the client’s VIP pool over the shared pool, and keeps other clients off it', async () => {
    await profileB.phones.createGateway({ name: 'shared', url: 'http://shared.local' });
    const vip = await profileB.phones.createGateway({ name: 'vip', url: 'http://vip.local', clientId: 7 });

    const vipTask = await profileB.creation.create(taskCreateCommand({ clientId: 7 }));
    const otherTask = await profileB.creation.create(taskCreateCommand({ clientId: 8 }));

    expect(vipTask.task.phoneId).toBe(vip.id);
    expect(otherTask.task.phoneId).not.toBe(vip.id);
  });

  it('ignores a requested VIP gateway of another client', async () => {
    const shared = await profileB.phones.createGateway({ name: 'shared', url: 'http://shared.local' });
    const othersVip = await profileB.phones.createGateway({ name: 'vip-8', url: 'http://vip8.local', clientId: 8 });

    const created = await profileB.creation.create(taskCreateCommand({ clientId: 7, requestedPhoneId: othersVip.id }));

    expect(created.task.phoneId).toBe(shared.id);
  });

  it('uses a requested VIP gateway of the client even when it is not the least recently used', async () => {
    const [first, second] = await Promise.all(
      ['v1', 'v2'].map((name) => profileB.phones.createGateway({ name, url: `http://${name}.local`, clientId: 7 })),
    );
    const busiest = Math.max(first!.id, second!.id);
    await profileB.creation.create(taskCreateCommand({ clientId: 7, requestedPhoneId: busiest }));

    const again = await profileB.creation.create(taskCreateCommand({ clientId: 7, requestedPhoneId: busiest }));

    expect(again.task.phoneId).toBe(busiest);
  });

  it('answers no_active_gateway without a debit when every gateway is disabled', async () => {
    const gateway = await profileB.phones.createGateway({ name: 'g', url: 'http://g.local' });
    await profileB.phones.setActive({ phoneId: gateway.id, kind: 'gateway', active: false });
    const debitsBefore = profileB.billing.debitCalls.length;

    await expect(profileB.creation.create(taskCreateCommand({ clientId: 7 }))).rejects.toMatchObject({ code: 'no_active_gateway' });
    expect(profileB.billing.debitCalls).toHaveLength(debitsBefore);
  });

  it('Profile A: routes to the first active own phone when the requested one is another client’s or disabled', async () => {
    const mine = await profileA.phones.register({ clientId: 7, name: 'mine', phoneLimit: 5 });
    const disabled = await profileA.phones.register({ clientId: 7, name: 'off', phoneLimit: 5 });
    await profileA.phones.setActive({ phoneId: disabled.phone.id, kind: 'own', active: false });
    const theirs = await profileA.phones.register({ clientId: 8, name: 'theirs', phoneLimit: 5 });

    const toTheirs = await profileA.creation.create(taskCreateCommand({ clientId: 7, requestedPhoneId: theirs.phone.id }));
    const toDisabled = await profileA.creation.create(taskCreateCommand({ clientId: 7, requestedPhoneId: disabled.phone.id }));

    expect([toTheirs.task.phoneId, toDisabled.task.phoneId]).toEqual([mine.phone.id, mine.phone.id]);
  });

  it('takes turns over the shared pool within a batch, and evenly when batches and single creates run at once', async () => {
    const gateways = await Promise.all(
      ['g1', 'g2', 'g3'].map((name) => profileB.phones.createGateway({ name, url: `http://${name}.local` })),
    );
    const batch = (size: number) => profileB.creation.createMany(Array.from({ length: size }, (_, i) => taskCreateCommand({ clientId: 200 + i })));

    const first = await batch(3);
    await Promise.all([batch(10), batch(10), batch(7), ...Array.from({ length: 6 }, (_, i) => profileB.creation.create(taskCreateCommand({ clientId: 300 + i })))]);

    expect(new Set(first.map((outcome) => outcome.ok && outcome.value.task.phoneId))).toEqual(new Set(gateways.map((gateway) => gateway.id)));
    const counts = await taskCountsByPhone();
    expect(gateways.map((gateway) => counts.get(gateway.id))).toEqual([12, 12, 12]);
  });

  it('routes each create of a batch by its own rules: VIP pool, requested VIP gateway, shared pool, none', async () => {
    const shared = await profileB.phones.createGateway({ name: 'shared', url: 'http://shared.local' });
    const [vip1, vip2] = await Promise.all(['v1', 'v2'].map((name) => profileB.phones.createGateway({ name, url: `http://${name}.local`, clientId: 7 })));
    const debitsBefore = profileB.billing.debitCalls.length;

    const outcomes = await profileB.creation.createMany([
      taskCreateCommand({ clientId: 7, requestedPhoneId: vip2!.id }),
      taskCreateCommand({ clientId: 7, requestedPhoneId: vip2!.id }),
      taskCreateCommand({ clientId: 8, requestedPhoneId: vip1!.id }),
      taskCreateCommand({ clientId: 7 }),
    ]);

    expect(outcomes.map((outcome) => outcome.ok && outcome.value.task.phoneId)).toEqual([vip2!.id, vip2!.id, shared.id, vip1!.id]);
    await profileB.phones.setActive({ phoneId: shared.id, kind: 'gateway', active: false });
    const refused = await profileB.creation.createMany([taskCreateCommand({ clientId: 8 }), taskCreateCommand({ clientId: 7 })]);
    expect(refused.map((outcome) => (outcome.ok ? 'created' : outcome.error.error))).toEqual(['no_active_gateway', 'created']);
    expect(profileB.billing.debitCalls.length - debitsBefore).toBe(5);
  });
});
