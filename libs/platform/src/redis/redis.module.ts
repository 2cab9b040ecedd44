import { Global, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { CommonConfig } from '../config/common-config.js';
import { Readiness } from '../observability/readiness.js';

/** Redis keys of this instance all start with the namespace. */
export function redisKeyPrefix(namespace: string): string {
  return `${namespace}:`;
}

export function createRedis(config: Pick<CommonConfig, 'redisUrl' | 'namespace'>): Redis {
  const redis = new Redis(config.redisUrl, {
    keyPrefix: redisKeyPrefix(config.namespace),
    // While Redis is away a command fails after one reconnect attempt instead of holding its caller.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  reportOutages(redis);
  return redis;
}

/**
 * One warning when Redis goes away and one line when it is back. Without an 'error' listener
 * ioredis prints every failed reconnect attempt as an unhandled error.
 */
export function reportOutages(redis: Redis, logger: Pick<Logger, 'warn' | 'log'> = new Logger('Redis')): void {
  let away = false;
  redis.on('error', (error: Error) => {
    if (away) return;
    away = true;
    logger.warn(`Redis unreachable, reconnecting with back-off: ${error.message}`);
  });
  redis.on('ready', () => {
    if (!away) return;
    away = false;
    logger.log('Redis reachable again');
  });
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
          useFactory: (readiness: Readiness) => readiness.register('redis', () => redis.ping()),
        },
      ],
      exports: [Redis],
    };
  }
}
