import type { TaskCreateCommand, TaskCreated, TaskSettlement } from '@smsq/contracts';
import type { TestDatabase } from '@smsq/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatchTestDatabase, dispatchUnderTest, type DispatchUnderTest } from '../testing/dispatch-under-test.js';
import { taskCreateCommand } from '../testing/task-commands.js';
import { TaskSettlementService } from './task-settlement.service.js';

const KEYS = 50;
const AT_ONCE = 5;

interface Race {
  key: string;
  create: PromiseSettledResult<TaskCreated>;
  settle: PromiseSettledResult<TaskSettlement>;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe(`${TaskSettlementService.name} racing creates on Postgres`, () => {
  let database: TestDatabase;
  let dispatch: DispatchUnderTest;
  /** Long enough for a create to finish first sometimes, short enough for it to lose sometimes, on any machine. */
  let settleWithinMs: number;

  beforeAll(async () => {
    database = await createDispatchTestDatabase();
    dispatch = await dispatchUnderTest(database.url, 'A');
    // A phone per key's client, so each race is between one create and its settlement, not a queue at one phone.
    for (let clientId = 1; clientId <= KEYS + 1; clientId++) await dispatch.phones.register({ clientId, name: 'pixel', phoneLimit: 1 });
    await dispatch.creation.create(taskCreateCommand({ clientId: KEYS + 1 }));
    const started = Date.now();
    await dispatch.creation.create(taskCreateCommand({ clientId: KEYS + 1 }));
    settleWithinMs = Math.max(20, 3 * (Date.now() - started));
  });

  afterAll(async () => {
    await dispatch?.close();
    await database?.drop();
  });

  async function race(command: TaskCreateCommand): Promise<Race> {
    const [create, settle] = await Promise.allSettled([
      dispatch.creation.create(command),
      pause(Math.random() * settleWithinMs).then(() => dispatch.settlement.settle(command.taskKey)),
    ]);
    return { key: command.taskKey, create, settle };
  }

  it('ends every key created or voided, never both, with the create, the settlement and billing agreeing', async () => {
    // Jitter on both sides, so settlements land before, during and after the creates' debits.
    dispatch.billing.duringDebit = () => pause(Math.random() * 5);
    const commands = Array.from({ length: KEYS }, (_, i) => taskCreateCommand({ clientId: i + 1 }));

    const races: Race[] = [];
    // A few keys at a time, so a create takes milliseconds rather than queueing behind the others for connections.
    for (let start = 0; start < KEYS; start += AT_ONCE) {
      races.push(...(await Promise.all(commands.slice(start, start + AT_ONCE).map(race))));
    }

    const raced = { taskKey: { in: commands.map((command) => command.taskKey) } };
    const taskKeys = new Set((await dispatch.db.task.findMany({ where: raced, select: { taskKey: true } })).map((row) => row.taskKey));
    const voidedKeys = new Set((await dispatch.db.voidedTaskKey.findMany({ where: raced })).map((row) => row.taskKey));
    const refunded = new Set(dispatch.billing.refundedKeys());
    for (const { key, create, settle } of races) {
      expect(settle.status, key).toBe('fulfilled');
      const outcome = settle.status === 'fulfilled' ? settle.value.outcome : undefined;
      expect(taskKeys.has(key) !== voidedKeys.has(key), `${key} is exactly one of created or voided`).toBe(true);
      expect(outcome, key).toBe(taskKeys.has(key) ? 'created' : 'voided');
      expect(create.status, key).toBe(taskKeys.has(key) ? 'fulfilled' : 'rejected');
      if (create.status === 'fulfilled') expect(create.value.task.id, key).toBeGreaterThan(0);
      // A voided key keeps no credit: debited ones are refunded, and a created one never is.
      expect(refunded.has(key), key).toBe(voidedKeys.has(key) && dispatch.billing.debitedKeys().includes(key));
    }
    expect(taskKeys.size + voidedKeys.size).toBe(KEYS);
    // The race must really have been run both ways, or this test proves nothing.
    expect(taskKeys.size).toBeGreaterThan(0);
    expect(voidedKeys.size).toBeGreaterThan(0);
  });

  it('settles many keys in order: a stored task is created, an unknown key voided, and a create with a voided key refused', async () => {
    const stored = taskCreateCommand({ clientId: 1 });
    await dispatch.creation.create(stored);
    const unknown = taskCreateCommand({ clientId: 1 });

    const outcomes = await dispatch.settlement.settleMany([unknown.taskKey, stored.taskKey.toUpperCase(), unknown.taskKey]);

    expect(outcomes.map((outcome) => outcome.ok && outcome.value.outcome)).toEqual(['voided', 'created', 'voided']);
    await expect(dispatch.creation.create(unknown)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
