import { eventually, FaultProxies, throughProxy, timed, until } from '@smsq/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, REDIS_SILENCE_BOUNDS, redisAnswersAfresh } from './redis.module.js';
import { RedisSubscription, SUBSCRIPTION_HEARTBEAT_MS } from './redis-subscription.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const REDIS = { host: new URL(REDIS_URL).hostname, port: Number(new URL(REDIS_URL).port || 6379) };

// Concurrent: each test waits out seconds of silence on a proxy of its own.
describe.concurrent('Redis connections gone silent', () => {
  const namespace = `test_silence_${randomBytes(4).toString('hex')}`;
  let proxies: FaultProxies;
  let proxyCount = 0;

  beforeAll(async () => {
    proxies = await FaultProxies.start();
  });

  afterAll(async () => {
    await proxies?.close();
  });

  /** A proxy of its own in front of Redis, so that no test sees another's fault. */
  async function proxiedRedis(): Promise<{ name: string; url: string }> {
    const name = `redis-${proxyCount++}`;
    return { name, url: throughProxy(REDIS_URL, await proxies.add(name, REDIS)) };
  }

  describe(createRedis.name, () => {
    it('fails a command after 2 s so a cache falls back to its source, drops the silent socket by itself, and answers again once the network heals', async ({ onTestFinished }) => {
      const proxy = await proxiedRedis();
      const sut = createRedis({ redisUrl: proxy.url, namespace });
      onTestFinished(() => sut.disconnect());
      const closedAt: number[] = [];
      let connections = 0;
      sut.on('close', () => closedAt.push(performance.now()));
      sut.on('connect', () => connections++);
      await sut.set('credential', 'cached', 'EX', 60);
      /** The credential cache's way with Redis: ask it, and on any failure read the source instead. */
      const credential = async () => {
        try {
          return (await sut.get('credential')) ?? 'from the database';
        } catch {
          return 'from the database';
        }
      };

      await proxies.fault(proxy.name, { kind: 'silent' });
      const silentSince = performance.now();
      const [command, lookup] = await Promise.all([timed(() => sut.get('credential')), timed(credential)]);

      expect(command.error).toEqual(new Error('Command timed out'));
      expect(command.ms).toBeGreaterThanOrEqual(REDIS_SILENCE_BOUNDS.commandTimeout - 50);
      // Upper bounds leave a busy machine's timers 1.5 s, still short of the socket time-out the next step waits for.
      expect(command.ms).toBeLessThan(REDIS_SILENCE_BOUNDS.commandTimeout + 1_500);
      expect(lookup.value).toBe('from the database');
      expect(lookup.ms).toBeLessThan(REDIS_SILENCE_BOUNDS.commandTimeout + 1_500);

      // No byte for the socket time-out while answers are owed: the client drops the socket.
      await until(() => closedAt.length > 0, { timeoutMs: REDIS_SILENCE_BOUNDS.socketTimeout + 3_000 });
      expect(closedAt[0]! - silentSince).toBeGreaterThanOrEqual(REDIS_SILENCE_BOUNDS.socketTimeout - 50);
      expect(closedAt[0]! - silentSince).toBeLessThan(REDIS_SILENCE_BOUNDS.socketTimeout + 1_500);

      // Healed only once the client has connected again into the silence: that connection is as dead as the first.
      await until(() => connections === 2, { timeoutMs: 5_000 });
      await proxies.heal(proxy.name);
      const healedAt = performance.now();
      await eventually(async () => expect(await credential()).toBe('cached'), { timeoutMs: REDIS_SILENCE_BOUNDS.socketTimeout + 3_000, intervalMs: 50 });
      expect(performance.now() - healedAt).toBeLessThan(REDIS_SILENCE_BOUNDS.socketTimeout + 3_000);
      expect(sut.status).toBe('ready');
    });
  });

  describe(redisAnswersAfresh.name, () => {
    it('resolves when Redis answers a new connection', async () => {
      await expect(redisAnswersAfresh(REDIS_URL)).resolves.toBeUndefined();
    });

    it('rejects within 3 s when a new connection is accepted and never answered', async () => {
      const proxy = await proxiedRedis();
      await proxies.fault(proxy.name, { kind: 'silent' });

      const probe = await timed(() => redisAnswersAfresh(proxy.url));

      expect(probe.error).toBeInstanceOf(Error);
      expect(probe.ms).toBeLessThan(3_000);
    });
  });

  describe(RedisSubscription.name, () => {
    it('notices within 4 s that it cannot hear its channel any more, and hears it again once the network heals', async ({ onTestFinished }) => {
      const proxy = await proxiedRedis();
      const channel = `${namespace}:signals`;
      const heard: string[] = [];
      let deafened = 0;
      const sut = new RedisSubscription(proxy.url, channel, (message) => heard.push(message), () => deafened++);
      const publisher = new Redis(REDIS_URL);
      onTestFinished(() => {
        sut.close();
        publisher.disconnect();
      });
      await until(() => sut.hearing, { timeoutMs: 3_000 });
      await publisher.publish(channel, 'before');
      await until(() => heard.includes('before'), { timeoutMs: 3_000 });

      await proxies.fault(proxy.name, { kind: 'silent' });
      const silentSince = performance.now();
      await until(() => !sut.hearing, { timeoutMs: 2 * SUBSCRIPTION_HEARTBEAT_MS + 2_000 });
      const deafAfter = performance.now() - silentSince;

      expect(deafened).toBe(1);
      expect(deafAfter).toBeLessThan(2 * SUBSCRIPTION_HEARTBEAT_MS + 1_500);

      // Healed only once the subscription has dropped its connection and made a new one into the silence, as dead as the first.
      await until(async () => (await proxies.connections(proxy.name)) === 0, { timeoutMs: REDIS_SILENCE_BOUNDS.socketTimeout + 1_000 });
      await until(async () => (await proxies.connections(proxy.name)) === 1, { timeoutMs: 5_000 });
      await proxies.heal(proxy.name);
      const healedAt = performance.now();
      await until(() => sut.hearing, { timeoutMs: 10_000 });
      const hearingAfter = performance.now() - healedAt;
      await publisher.publish(channel, 'after');
      await until(() => heard.includes('after'), { timeoutMs: 5_000 });

      expect(hearingAfter).toBeLessThan(10_000);
      expect(heard).toEqual(['before', 'after']);
    });
  });
});
