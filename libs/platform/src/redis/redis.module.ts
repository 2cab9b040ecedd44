import { Global, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { CommonConfig } from '../config/common-config.js';
import { Readiness } from '../observability/readiness.js';

/** Redis keys of this instance all start with the namespace. */
export function redisKeyPrefix(namespace: string): string {
  return `${namespace}:`;
}

export function createRedis(config: Pick<CommonConfig, 'redisUrl' | 'namespace'>): Redis {
  return new Redis(config.redisUrl, {
    keyPrefix: redisKeyPrefix(config.namespace),
    // While Redis is away a command fails after one reconnect attempt instead of holding its caller.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
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
