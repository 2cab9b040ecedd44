import { Global, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis, type RedisOptions } from 'ioredis';
import type { CommonConfig } from '../config/common-config.js';
import { Readiness } from '../observability/readiness.js';
import { connectionBack, connectionClosed, connectionLost } from '../observability/dependency-outages.js';

/** Redis keys of this instance all start with the namespace. */
export function redisKeyPrefix(namespace: string): string {
  return `${namespace}:`;
}

/**
 * Every Redis connection's bounds on silence. A connection can stay open while its bytes vanish (a
 * dropped NAT mapping, a failover); without these a command on it would wait for ever and the
 * fallbacks behind it (the credential cache's database lookup, the long polls' own timers) would
 * never run.
 */
export const REDIS_SILENCE_BOUNDS = {
  connectTimeout: 3_000,
  /** A caller waits this long for an answer, then gets an error and takes its fallback. */
  commandTimeout: 2_000,
  /** No byte for this long while an answer is owed: the socket is dropped and a new one made. */
  socketTimeout: 4_000,
  /** TCP keep-alive after 10 s idle: on a real network the kernel then notices a dead peer. */
  keepAlive: 10_000,
  /** While Redis is away a command fails after one reconnect attempt instead of holding its caller; with the command time-out, this bounds the offline queue. */
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
} satisfies RedisOptions;

export function createRedis(config: Pick<CommonConfig, 'redisUrl' | 'namespace'>): Redis {
  const redis = new Redis(config.redisUrl, { ...REDIS_SILENCE_BOUNDS, keyPrefix: redisKeyPrefix(config.namespace) });
  reportOutages(redis, config.redisUrl);
  return redis;
}

/** Whether Redis answers a connection made afresh: the `reachable` side of the Redis check. */
export async function redisAnswersAfresh(redisUrl: string): Promise<void> {
  // One round trip, the PING: the client-info commands and ready check of a usual connection would each wait out the command time-out first.
  const probe = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 2_000, commandTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false, enableReadyCheck: false, disableClientInfo: true });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
  } finally {
    probe.disconnect();
  }
}

/**
 * One line when Redis goes away (`Redis at 127.0.0.1:6379 is not reachable (connection refused);
 * retrying`, or its refused login) and one when it is back, for all of the process's Redis
 * connections together. Without an 'error' listener ioredis prints every failed reconnect
 * attempt as an unhandled error.
 */
export function reportOutages(redis: Redis, redisUrl: string, logger: Pick<Logger, 'warn' | 'log'> = new Logger('Redis')): void {
  const dependency = { kind: 'Redis', url: redisUrl } as const;
  redis.on('error', (error: Error) => connectionLost(dependency, redis, error, logger));
  redis.on('ready', () => connectionBack(dependency, redis, logger));
  redis.on('end', () => connectionClosed(dependency, redis));
}

class RedisShutdown implements OnApplicationShutdown {
  constructor(private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({})
export class RedisModule {
  static register(config: CommonConfig): DynamicModule {
    const redis = createRedis(config);
    return {
      module: RedisModule,
      providers: [
        { provide: Redis, useValue: redis },
        { provide: RedisShutdown, useValue: new RedisShutdown(redis) },
        {
          provide: 'RedisReadiness',
          inject: [Readiness],
          useFactory: (readiness: Readiness) => readiness.register('redis', () => redis.ping(), { reachable: () => redisAnswersAfresh(config.redisUrl) }),
        },
      ],
      exports: [Redis],
    };
  }
}
