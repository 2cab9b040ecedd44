import { PROFILES, type Profile } from '@smsq/contracts';
import { QUEUE_TYPES, type QueueType } from '../messaging/queues.js';
import { EnvReader } from './env-reader.js';

/**
 * What every service reads: its profile, where the shared infrastructure is, and its namespace on
 * it. A class, so each service's configuration extends it and serves as its own injection token.
 */
export abstract class CommonConfig {
  profile!: Profile;
  namespace!: string;
  /** DATABASE_URL when read; a service that owns a schema replaces it with its own role's URL before it connects. */
  databaseUrl!: string;
  amqpUrl!: string;
  /** The type of the service queues: `quorum` for a clustered RabbitMQ; the same in every process. */
  queueType!: QueueType;
  redisUrl!: string;
  logFormat!: 'json' | 'text';
  /** `debug` also shows the framework's start-up lines (modules, routes) and other detail. */
  logLevel!: 'info' | 'debug';
  /** How long a request over the broker may take before the caller gives up. */
  rpcTimeoutMs!: number;
  /** How long a dependency may answer fresh connections while this process's own keep failing before `/healthz` asks for a restart. */
  stuckLimitS!: number;
}

export function readCommonConfig(env: EnvReader): CommonConfig {
  const namespace = env.string('SMSQ_NAMESPACE', 'smsq');
  env.require(/^[a-z0-9][a-z0-9_-]{0,40}$/i.test(namespace), `SMSQ_NAMESPACE must be letters, digits, _ or - (at most 41), got ${JSON.stringify(namespace)}`);
  return {
    profile: env.oneOf('SMSQ_PROFILE', PROFILES, 'A'),
    namespace,
    databaseUrl: env.url('DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/smsq', ['postgres', 'postgresql']),
    amqpUrl: env.url('AMQP_URL', 'amqp://guest:guest@127.0.0.1:5672', ['amqp', 'amqps']),
    queueType: env.oneOf('SMSQ_QUEUE_TYPE', QUEUE_TYPES, 'classic'),
    redisUrl: env.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis', 'rediss']),
    logFormat: env.oneOf('SMSQ_LOG_FORMAT', ['json', 'text'] as const, process.env['NODE_ENV'] === 'production' ? 'json' : 'text'),
    logLevel: env.oneOf('SMSQ_LOG_LEVEL', ['info', 'debug'] as const, 'info'),
    rpcTimeoutMs: env.int('SMSQ_RPC_TIMEOUT_MS', 5_000, { min: 100, max: 120_000 }),
    stuckLimitS: env.int('SMSQ_STUCK_LIMIT_S', 60, { min: 10, max: 3_600 }),
  };
}

/** SMSQ_SMPP_PORT: where the SMPP service takes binds (the dashboard tells users the same port). */
export function readSmppPort(env: EnvReader): number {
  return env.port('SMSQ_SMPP_PORT', 2775);
}
