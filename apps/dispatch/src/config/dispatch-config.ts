import { CommonConfig, readCommonConfig, type EnvReader } from '@smsq/platform';

export class DispatchConfig extends CommonConfig {
  /** DISPATCH_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** A claim not reported within this long returns its task to pending. */
  claimTimeoutS!: number;
  /** Claims of one task before it fails for good (and is refunded). */
  maxAttempts!: number;
  /** A task whose client set no expiry fails as `expired` this long after it is due; undefined: it never expires. */
  taskMaxAgeS: number | undefined;
  /** Webhooks may reach loopback and private addresses (tests, private networks); otherwise refused after resolving. */
  webhookAllowPrivate!: boolean;
}

export function readDispatchConfig(env: EnvReader): DispatchConfig {
  return Object.assign(new DispatchConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('DISPATCH_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('DISPATCH_PORT', 3012),
    claimTimeoutS: env.int('SMSQ_CLAIM_TIMEOUT_S', 300, { min: 1, max: 86_400 }),
    maxAttempts: env.int('SMSQ_MAX_ATTEMPTS', 3, { min: 1, max: 100 }),
    taskMaxAgeS: env.int('SMSQ_TASK_MAX_AGE_S', 0, { min: 0, max: 366 * 86_400 }) || undefined,
    webhookAllowPrivate: env.bool('SMSQ_WEBHOOK_ALLOW_PRIVATE', false),
  });
}
