import { Logger } from '@nestjs/common';
import { UnavailableError } from '@smsq/contracts';

const logger = new Logger('SessionRedis');

/** Sessions and sign-in counters live in Redis; while it is away, signing in fails as `unavailable`, never as a 500. */
export async function redisCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new UnavailableError('the session store is not reachable; retry later');
  }
}
