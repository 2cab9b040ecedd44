import { Injectable } from '@nestjs/common';
import { TokenBuckets } from '@smsq/platform';
import { Redis } from 'ioredis';
import { GatewayConfig } from '../config/gateway-config.js';

/** `SMSQ_RATE_LIMIT_RPS` per API key (and per SMPP credential, in the SMPP service), in Redis so every gateway instance shares it. */
@Injectable()
export class RateLimiter extends TokenBuckets {
  constructor(redis: Redis, config: GatewayConfig) {
    super(redis, config.rateLimitRps);
  }
}
