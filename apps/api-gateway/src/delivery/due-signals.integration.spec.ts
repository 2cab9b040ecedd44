import { dueSignalChannel } from '@smsq/contracts';
import { eventually, FaultProxies, throughProxy } from '@smsq/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfig } from '../config/gateway-config.js';
import { DueSignals } from './due-signals.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** Resolves once a published signal reaches a waiter, i.e. once `signals` is subscribed. */
async function hearingSignals(signals: DueSignals, publisher: Redis, namespace: string, timeoutMs = 10_000): Promise<void> {
  await eventually(
    async () => {
      const waiter = signals.register(null);
      const started = Date.now();
      const woke = waiter.wait(1_000, new AbortController().signal).then(() => Date.now());
      await publisher.publish(dueSignalChannel(namespace), '0');
      try {
        expect((await woke) - started).toBeLessThan(900);
      } finally {
        waiter.dispose();
      }
    },
    { timeoutMs },
  );
}

describe(DueSignals.name, () => {
  const namespace = `test_due_${randomBytes(4).toString('hex')}`;
  const publisher = new Redis(REDIS_URL);
  let sut: DueSignals;

  beforeAll(async () => {
    sut = new DueSignals(Object.assign(new GatewayConfig(), { namespace, redisUrl: REDIS_URL }));
    await sut.onModuleInit();
    await hearingSignals(sut, publisher, namespace);
  });

  afterAll(async () => {
    await sut.onApplicationShutdown();
    publisher.disconnect();
  });

  /** How long a poll waited; woken by `announce`, well under `timeoutMs`, which is long so a busy machine's slow wake-up still tells the two apart. */
  async function waitedMs(phoneId: number | null, announce: string | undefined, timeoutMs = 5_000): Promise<number> {
    const waiter = sut.register(phoneId);
    const started = Date.now();
    const done = waiter.wait(timeoutMs, new AbortController().signal);
    if (announce !== undefined) await publisher.publish(dueSignalChannel(namespace), announce);
    await done;
    waiter.dispose();
    return Date.now() - started;
  }

  it("wakes a phone's poll when its tasks become due, not another phone's", async () => {
    expect(await waitedMs(7, '7')).toBeLessThan(2_500);
    expect(await waitedMs(7, '8', 600)).toBeGreaterThanOrEqual(550);
  });

  it('wakes an unbound poll for any phone', async () => {
    expect(await waitedMs(null, '42')).toBeLessThan(2_500);
  });

  it('does not miss a signal that came between registering and waiting', async () => {
    const waiter = sut.register(3);
    // The announcement lands after the claim attempt found nothing but before the poll sleeps.
    (sut as unknown as { announce(phoneId: string): void }).announce('3');
    const started = Date.now();
    await waiter.wait(5_000, new AbortController().signal);
    expect(Date.now() - started).toBeLessThan(2_500);
    waiter.dispose();
  });

  it('stops waiting when the poller goes away', async () => {
    const gone = new AbortController();
    const waiter = sut.register(9);
    const started = Date.now();
    const done = waiter.wait(5_000, gone.signal);
    gone.abort();
    await done;
    // Not the 5 s asked for.
    expect(Date.now() - started).toBeLessThan(2_500);
    waiter.dispose();
  });

  it('stops waiting when either of its signals aborts, and leaves no listener on the one that lives on (the shutdown)', async () => {
    const shutdown = new AbortController();
    const waiter = sut.register(9);
    for (let poll = 0; poll < 50; poll++) {
      const gone = new AbortController();
      const done = waiter.wait(5_000, gone.signal, shutdown.signal);
      gone.abort();
      await done;
    }
    await waiter.wait(10, new AbortController().signal, shutdown.signal);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    const started = Date.now();
    const waiting = waiter.wait(5_000, new AbortController().signal, shutdown.signal);
    shutdown.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(2_500);
    waiter.dispose();
  });

  describe('with its Redis connection gone silent', () => {
    let proxies: FaultProxies;
    let deafened: DueSignals;
    const silentNamespace = `test_due_silent_${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      proxies = await FaultProxies.start();
      const port = await proxies.add('redis', { host: '127.0.0.1', port: 6379 });
      deafened = new DueSignals(Object.assign(new GatewayConfig(), { namespace: silentNamespace, redisUrl: throughProxy(REDIS_URL, port) }));
      await deafened.onModuleInit();
      await hearingSignals(deafened, publisher, silentNamespace);
    });

    afterAll(async () => {
      await deafened?.onApplicationShutdown();
      await proxies?.close();
    });

    it('wakes a poll waiting long within 5 s, caps later waits at 2 s, and wakes polls on signals again once the network heals', async () => {
      const waiter = deafened.register(7);
      const longPoll = waiter.wait(30_000, new AbortController().signal).then(() => performance.now());

      await proxies.fault('redis', { kind: 'silent' });
      const silentSince = performance.now();
      const wokenAfter = (await longPoll) - silentSince;
      const recheckStarted = performance.now();
      await waiter.wait(30_000, new AbortController().signal);
      const recheckAfter = performance.now() - recheckStarted;
      waiter.dispose();

      expect(wokenAfter).toBeLessThan(5_000);
      expect(recheckAfter).toBeGreaterThanOrEqual(1_950);
      // Not the 30 s asked for: the 2 s cap, with the same slack as the first wake's.
      expect(recheckAfter).toBeLessThan(2_000 + 5_000);

      await proxies.heal('redis');
      const healedAt = performance.now();
      await hearingSignals(deafened, publisher, silentNamespace, 20_000);
      // A socket time-out (4 s) and perhaps a reconnect into the silence before it healed (4 s more), on a busy machine.
      expect(performance.now() - healedAt).toBeLessThan(20_000);
      const heard = deafened.register(7);
      const started = performance.now();
      const woken = heard.wait(30_000, new AbortController().signal);
      await publisher.publish(dueSignalChannel(silentNamespace), '7');
      await woken;
      heard.dispose();
      // Woken by the signal, not by a deaf re-check after 2 s.
      expect(performance.now() - started).toBeLessThan(1_900);
    }, 45_000);
  });
});
