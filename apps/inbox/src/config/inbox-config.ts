import { CommonConfig, readCommonConfig, readOutboxRetentionS, readRetentionIntervalS, readTaskRetentionDays, type EnvReader } from '@smsq/platform';

export class InboxConfig extends CommonConfig {
  /** INBOX_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** SMSQ_RETENTION_INTERVAL_S: how often the retention prunes run. */
  retentionIntervalS!: number;
  /** SMSQ_RETENTION_OUTBOX_S: a published outbox event is deleted this long after it was published. */
  outboxRetentionS!: number;
  /** SMSQ_TASK_RETENTION_DAYS: a stored reply is deleted this many days after it was received; undefined: kept for ever. */
  messageRetentionDays: number | undefined;
}

export function readInboxConfig(env: EnvReader): InboxConfig {
  return Object.assign(new InboxConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('INBOX_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('INBOX_PORT', 3013),
    retentionIntervalS: readRetentionIntervalS(env),
    outboxRetentionS: readOutboxRetentionS(env),
    messageRetentionDays: readTaskRetentionDays(env),
  });
}
