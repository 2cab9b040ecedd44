import { CommonConfig, readCommonConfig, type EnvReader } from '@smsq/platform';

export class InboxConfig extends CommonConfig {
  port!: number;
}

export function readInboxConfig(env: EnvReader): InboxConfig {
  return Object.assign(new InboxConfig(), {
    ...readCommonConfig(env),
    port: env.port('INBOX_PORT', 3013),
  });
}
