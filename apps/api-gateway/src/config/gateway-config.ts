import { CommonConfig, isTimeZone, readCommonConfig, type EnvReader } from '@smsq/platform';

export class GatewayConfig extends CommonConfig {
  /** GATEWAY_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** Requests per second per API key; burst is twice that; 0 turns the limit off. */
  rateLimitRps!: number;
  /** The time zone of a client that has none of its own. */
  defaultTimezone!: string;
  /** Profile B: the region a recipient without country code is read in; none means such a recipient is unusable. */
  defaultRegion: string | undefined;
  /** How long create-task waits for dispatch before settling the outcome itself. */
  createTimeoutMs!: number;
  /** How many batches of creates may be on their way to dispatch at once; more creates wait for the next batch. */
  createBatchesInFlight!: number;
}

export function readGatewayConfig(env: EnvReader): GatewayConfig {
  const config = Object.assign(new GatewayConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('GATEWAY_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('PORT', 3000),
    rateLimitRps: env.int('SMSQ_RATE_LIMIT_RPS', 50, { min: 0, max: 1_000_000 }),
    defaultTimezone: env.string('SMSQ_TIMEZONE', 'Europe/Belgrade'),
    defaultRegion: env.optionalString('SMSQ_DEFAULT_REGION')?.toUpperCase(),
    // Below the minute after which an idempotency record still in progress counts as abandoned.
    createTimeoutMs: env.int('SMSQ_CREATE_TIMEOUT_MS', 8_000, { min: 200, max: 30_000 }),
    createBatchesInFlight: env.int('SMSQ_CREATE_BATCHES_IN_FLIGHT', 4, { min: 1, max: 64 }),
  });
  env.require(isTimeZone(config.defaultTimezone), `SMSQ_TIMEZONE must be an IANA time zone, got ${JSON.stringify(config.defaultTimezone)}`);
  env.require(
    config.defaultRegion === undefined || /^[A-Z]{2}$/.test(config.defaultRegion),
    `SMSQ_DEFAULT_REGION must be a two-letter ISO country code, got ${JSON.stringify(config.defaultRegion)}`,
  );
  return config;
}
