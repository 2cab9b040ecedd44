import { dueSignalChannel } from '@smsq/contracts';
import { eventually } from '@smsq/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfig } from '../config/gateway-config.js';
import { DueSignals } from './due-signals.js';

describe(DueSignals.name, () => {
  const namespace = `test_due_${randomBytes(4).toString('hex')}`;
  const publisher = new Redis('redis://127.0.0.1:6379');
  let sut: DueSignals;

  beforeAll(async () => {
    sut = new DueSignals(Object.assign(new GatewayConfig(), { namespace, redisUrl: 'redis://127.0.0.1:6379' }));
    await sut.onModuleInit();
    // Subscribed once a published message reaches a waiter.
    await eventually(async () => {
      const waiter = sut.register(null);
      const woke = waiter.wait(200, new AbortController().signal).then(() => Date.now());
      await publisher.publish(dueSignalChannel(namespace), '0');
      const started = Date.now();
      expect((await woke) - started).toBeLessThan(150);
      waiter.dispose();
    });
  });

  afterAll(async () => {
    await sut.onApplicationShutdown();
    publisher.disconnect();
  });

  async function waitedMs(phoneId: number | null, announce: string | undefined, timeoutMs = 1_000): Promise<number> {
    const waiter = sut.register(phoneId);
    const started = Date.now();
    const done = waiter.wait(timeoutMs, new AbortController().signal);
    if (announce !== undefined) await publisher.publish(dueSignalChannel(namespace), announce);
    await done;
    waiter.dispose();
    return Date.now() - started;
  }

  it("wakes a phone's poll when its tasks become due, not another phone's", async () => {
    expect(await waitedMs(7, '7')).toBeLessThan(500);
    expect(await waitedMs(7, '8', 600)).toBeGreaterThanOrEqual(550);
  });

  it('wakes an unbound poll for any phone', async () => {
    expect(await waitedMs(null, '42')).toBeLessThan(500);
  });

  it('does not miss a signal that came between registering and waiting', async () => {
    const waiter = sut.register(3);
    // The announcement lands after the claim attempt found nothing but before the poll sleeps.
    (sut as unknown as { announce(phoneId: string): void }).announce('3');
    const started = Date.now();
    await waiter.wait(2_000, new AbortController().signal);
    expect(Date.now() - started).toBeLessThan(100);
    waiter.dispose();
  });

  it('stops waiting when the poller goes away', async () => {
    const gone = new AbortController();
    const waiter = sut.register(9);
    const started = Date.now();
    const done = waiter.wait(5_000, gone.signal);
    gone.abort();
    await done;
    expect(Date.now() - started).toBeLessThan(100);
    waiter.dispose();
  });
});
