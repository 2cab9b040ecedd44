import { readTaskIntakeSettings } from '@smsq/task-intake';
import { CommonConfig, isTimeZone, readCommonConfig, readIdempotencyRetentionS, readRateLimitRps, readRetentionIntervalS, type EnvReader } from '@smsq/platform';

export class GatewayConfig extends CommonConfig {
  /** GATEWAY_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** Requests per second per API key; burst is twice that; 0 turns the limit off. */
  rateLimitRps!: number;
  /** The time zone of a client that has none of its own. */
  defaultTimezone!: string;
  /** The task intake's: SMSQ_DEFAULT_REGION, SMSQ_CREATE_TIMEOUT_MS, SMSQ_CREATE_BATCHES_IN_FLIGHT. */
  defaultRegion: string | undefined;
  createTimeoutMs!: number;
  createBatchesInFlight!: number;
  /** SMSQ_RETENTION_INTERVAL_S: how often the retention prunes run. */
  retentionIntervalS!: number;
  /**
   * SMSQ_RETENTION_IDEMPOTENCY_S: an Idempotency-Key's first answer is replayed this long, and its
   * record deleted once past it: one value, so no record is pruned while it can still be replayed.
   */
  idempotencyReplayS!: number;
}

/** How long a create with an Idempotency-Key may stay in progress before a repeat counts it as abandoned by a gateway that died. */
export function idempotencyAbandonedAfterMs(config: Pick<GatewayConfig, 'createTimeoutMs' | 'rpcTimeoutMs'>): number {
  // The create itself, then settling it and reading the balance when its answer did not come.
  return config.createTimeoutMs + 2 * config.rpcTimeoutMs + 2_000;
}

export function readGatewayConfig(env: EnvReader): GatewayConfig {
  const config = Object.assign(new GatewayConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('GATEWAY_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('PORT', 3000),
    rateLimitRps: readRateLimitRps(env),
    defaultTimezone: env.string('SMSQ_TIMEZONE', 'Europe/Belgrade'),
    ...readTaskIntakeSettings(env),
    retentionIntervalS: readRetentionIntervalS(env),
    idempotencyReplayS: readIdempotencyRetentionS(env),
  });
  // A record still in progress must outlive any create that may still finish, or a repeat would queue and charge a second task.
  env.require(
    config.idempotencyReplayS * 1_000 > idempotencyAbandonedAfterMs(config),
    `SMSQ_RETENTION_IDEMPOTENCY_S must exceed the longest create (SMSQ_CREATE_TIMEOUT_MS + 2 × SMSQ_RPC_TIMEOUT_MS + 2 s = ${Math.ceil(idempotencyAbandonedAfterMs(config) / 1_000)} s), got ${config.idempotencyReplayS}`,
  );
  env.require(isTimeZone(config.defaultTimezone), `SMSQ_TIMEZONE must be an IANA time zone, got ${JSON.stringify(config.defaultTimezone)}`);
  return config;
}
