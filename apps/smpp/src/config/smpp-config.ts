import { existsSync } from 'node:fs';
import { readTaskIntakeSettings } from '@smsq/task-intake';
import { CommonConfig, readCommonConfig, readRateLimitRps, readSmppPort, readRetentionIntervalS, readTaskRetentionDays, type EnvReader } from '@smsq/platform';

export class SmppConfig extends CommonConfig {
  /** SMPP_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  /** SMPP_HTTP_PORT: health, readiness and metrics. */
  httpPort!: number;
  /** SMSQ_SMPP_PORT: where SMPP clients bind (plain TCP). */
  smppPort!: number;
  /** SMSQ_SMPP_TLS_PORT: SMPP over TLS, when a certificate is set. */
  tlsPort!: number;
  /** SMSQ_SMPP_TLS_CERT and SMSQ_SMPP_TLS_KEY: PEM files; both or neither. */
  tls: { certFile: string; keyFile: string } | undefined;
  /** SMSQ_SMPP_HOST: the address both ports listen on. */
  host!: string;
  /** SMSQ_SMPP_ENQUIRE_S: after this long without a PDU from a bind smsq sends enquire_link; silent for as long again, the bind is closed. */
  enquireS!: number;
  /** SMSQ_SMPP_KEEP_S: a receipt or reply waits this long for a receiver bind before it is dropped. */
  keepS!: number;
  /** SMSQ_SMPP_PART_WAIT_S: the parts of a long message must all arrive within this long; otherwise the message is refused. */
  partWaitS!: number;
  /** The task intake's, as the API reads them: SMSQ_DEFAULT_REGION, SMSQ_CREATE_TIMEOUT_MS, SMSQ_CREATE_BATCHES_IN_FLIGHT. */
  defaultRegion: string | undefined;
  createTimeoutMs!: number;
  createBatchesInFlight!: number;
  /** SMSQ_RATE_LIMIT_RPS: submits per second per credential, as per API key; 0 turns it off. */
  rateLimitRps!: number;
  /** SMSQ_RETENTION_INTERVAL_S */
  retentionIntervalS!: number;
  /** SMSQ_TASK_RETENTION_DAYS: submissions are kept as long as their tasks; undefined: for ever. */
  submissionRetentionDays: number | undefined;
}

export function readSmppConfig(env: EnvReader): SmppConfig {
  const certFile = env.optionalString('SMSQ_SMPP_TLS_CERT');
  const keyFile = env.optionalString('SMSQ_SMPP_TLS_KEY');
  env.require((certFile === undefined) === (keyFile === undefined), 'SMSQ_SMPP_TLS_CERT and SMSQ_SMPP_TLS_KEY go together: set both (PEM files) or neither');
  for (const [name, file] of [['SMSQ_SMPP_TLS_CERT', certFile], ['SMSQ_SMPP_TLS_KEY', keyFile]] as const) {
    env.require(file === undefined || existsSync(file), `${name} is ${file}, which does not exist`);
  }
  return Object.assign(new SmppConfig(), {
    ...readCommonConfig(env),
    ...readTaskIntakeSettings(env),
    serviceDatabaseUrl: env.optionalUrl('SMPP_DATABASE_URL', ['postgres', 'postgresql']),
    httpPort: env.port('SMPP_HTTP_PORT', 3014),
    smppPort: readSmppPort(env),
    tlsPort: env.port('SMSQ_SMPP_TLS_PORT', 3550),
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
    host: env.string('SMSQ_SMPP_HOST', '0.0.0.0'),
    enquireS: env.int('SMSQ_SMPP_ENQUIRE_S', 30, { min: 1, max: 3_600 }),
    keepS: env.int('SMSQ_SMPP_KEEP_S', 3 * 86_400, { min: 60, max: 30 * 86_400 }),
    partWaitS: env.int('SMSQ_SMPP_PART_WAIT_S', 60, { min: 1, max: 3_600 }),
    rateLimitRps: readRateLimitRps(env),
    retentionIntervalS: readRetentionIntervalS(env),
    submissionRetentionDays: readTaskRetentionDays(env),
  });
}
