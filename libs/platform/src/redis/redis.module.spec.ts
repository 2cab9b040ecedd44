import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventually } from '@smsq/testing';
import { createRedis, reportOutages } from './redis.module.js';

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('Redis outages', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
    vi.restoreAllMocks();
  });

  it('a service’s Redis connection keeps reconnecting quietly while Redis is away, instead of printing unhandled errors', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const redis = createRedis({ redisUrl: `redis://127.0.0.1:${await closedPort()}`, namespace: 'outage' });
    clients.push(redis);
    let attempts = 0;
    redis.on('reconnecting', () => (attempts += 1));

    await eventually(() => expect(attempts).toBeGreaterThanOrEqual(2), { timeoutMs: 5_000, intervalMs: 50 });

    expect(printed.mock.calls.filter((call) => String(call[0]).includes('Unhandled error event'))).toEqual([]);
  });

  it('warns once per outage, not once per reconnect attempt', async () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const port = await closedPort();
    const redisUrl = `redis://:s3cret@127.0.0.1:${port}`;
    const redis = new Redis(redisUrl, { retryStrategy: () => 50, lazyConnect: true });
    clients.push(redis);
    reportOutages(redis, redisUrl, logger);
    let attempts = 0;
    redis.on('reconnecting', () => (attempts += 1));
    redis.connect().catch(() => undefined);

    await eventually(() => expect(attempts).toBeGreaterThanOrEqual(3), { timeoutMs: 5_000, intervalMs: 20 });

    expect(logger.warn.mock.calls).toEqual([[`Redis at 127.0.0.1:${port} is not reachable (connection refused); retrying`]]);
  });

  it('says it once for all of the process’s connections to that Redis', async () => {
    const logger = { warn: vi.fn(), log: vi.fn() };
    const port = await closedPort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    const [main, subscriber] = [1, 2].map(() => new Redis(redisUrl, { retryStrategy: () => 50, lazyConnect: true }));
    clients.push(main!, subscriber!);
    let attempts = 0;
    for (const redis of [main!, subscriber!]) {
      reportOutages(redis, redisUrl, logger);
      redis.on('reconnecting', () => (attempts += 1));
      redis.connect().catch(() => undefined);
    }

    await eventually(() => expect(attempts).toBeGreaterThanOrEqual(4), { timeoutMs: 5_000, intervalMs: 20 });

    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});
