import { CommonConfig, readCommonConfig, type EnvReader } from '@smsq/platform';

export class InboxConfig extends CommonConfig {
  /** INBOX_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
}

export function readInboxConfig(env: EnvReader): InboxConfig {
  return Object.assign(new InboxConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('INBOX_DATABASE_URL', ['postgres', 'postgresql']),
    port: env.port('INBOX_PORT', 3013),
  });
}
