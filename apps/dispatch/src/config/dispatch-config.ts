import { MAX_WAIT_S } from '@smsq/contracts';
import {
  CommonConfig,
  isTimeZone,
  readCommonConfig,
  readOutboxRetentionS,
  readRetentionIntervalS,
  readTaskRetentionDays,
  readWebhookRetentionS,
  type EnvReader,
} from '@smsq/platform';

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
  /** A phone whose last contact is older than this is silent: routing passes it by and failover moves its waiting tasks. */
  phoneSilentS!: number;
  /** SMSQ_TIMEZONE: whose days count a daily limit of a phone without an owner's zone. */
  timeZone!: string;
  /** SMSQ_RETENTION_INTERVAL_S: how often the retention prunes run. */
  retentionIntervalS!: number;
  /** SMSQ_RETENTION_OUTBOX_S: a published outbox message is deleted this long after it was published. */
  outboxRetentionS!: number;
  /** SMSQ_RETENTION_WEBHOOK_S: a delivered or failed webhook delivery is deleted this long after its last attempt. */
  webhookRetentionS!: number;
  /** SMSQ_TASK_RETENTION_DAYS: a finished task is deleted this many days after it finished; undefined: kept for ever. */
  taskRetentionDays: number | undefined;
  /** SMSQ_PAUSE_STEPS_S: how long a phone the carrier refused for volume rests, the first time and on each repeat within a day. */
  pauseStepsS!: number[];
}

const PAUSE_STEPS = /^\d{1,6}(,\d{1,6}){0,9}$/;

export function readDispatchConfig(env: EnvReader): DispatchConfig {
  const pauseSteps = env.string('SMSQ_PAUSE_STEPS_S', '60,300,900,3600').replaceAll(' ', '');
  const config = Object.assign(new DispatchConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('DISPATCH_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('DISPATCH_PORT', 3012),
    claimTimeoutS: env.int('SMSQ_CLAIM_TIMEOUT_S', 300, { min: 1, max: 86_400 }),
    maxAttempts: env.int('SMSQ_MAX_ATTEMPTS', 3, { min: 1, max: 100 }),
    taskMaxAgeS: env.int('SMSQ_TASK_MAX_AGE_S', 0, { min: 0, max: 366 * 86_400 }) || undefined,
    webhookAllowPrivate: env.bool('SMSQ_WEBHOOK_ALLOW_PRIVATE', false),
    phoneSilentS: env.int('SMSQ_PHONE_SILENT_S', 120, { min: 1, max: 86_400 }),
    timeZone: env.string('SMSQ_TIMEZONE', 'Europe/Belgrade'),
    retentionIntervalS: readRetentionIntervalS(env),
    outboxRetentionS: readOutboxRetentionS(env),
    webhookRetentionS: readWebhookRetentionS(env),
    taskRetentionDays: readTaskRetentionDays(env),
    pauseStepsS: pauseSteps.split(',').map(Number),
  });
  // A healthy worker is in contact at least once per long poll: a shorter window would call it silent between polls.
  env.require(config.phoneSilentS > MAX_WAIT_S, `SMSQ_PHONE_SILENT_S must exceed the longest long poll (${MAX_WAIT_S} s), got ${config.phoneSilentS}`);
  env.require(
    PAUSE_STEPS.test(pauseSteps) && config.pauseStepsS.every((step) => step > 0),
    `SMSQ_PAUSE_STEPS_S must be 1 to 10 positive whole numbers of seconds separated by commas (60,300,900,3600), got ${JSON.stringify(pauseSteps)}`,
  );
  env.require(isTimeZone(config.timeZone), `SMSQ_TIMEZONE must be an IANA time zone, got ${JSON.stringify(config.timeZone)}`);
  return config;
}
