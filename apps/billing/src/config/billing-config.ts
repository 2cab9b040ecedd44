import { CommonConfig, readCommonConfig, type EnvReader } from '@smsq/platform';

export class BillingConfig extends CommonConfig {
  /** BILLING_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** Profile A: length of one daily credit period. */
  dailyPeriodS!: number;
  /** A debit whose task is still unknown after this long is settled with dispatch (kept or refunded). */
  settleAfterS!: number;
}

export function readBillingConfig(env: EnvReader): BillingConfig {
  return Object.assign(new BillingConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('BILLING_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('BILLING_PORT', 3011),
    dailyPeriodS: env.int('SMSQ_DAILY_PERIOD_S', 86_400, { min: 1 }),
    settleAfterS: env.int('SMSQ_SETTLE_AFTER_S', 30, { min: 1, max: 86_400 }),
  });
}
