import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { CommonConfig, isHttpUrl, isLoopbackUrl, isTimeZone, readCommonConfig, readPasswordResetRetentionS, readRetentionIntervalS, readSmppPort, type EnvReader } from '@smsq/platform';
import { DEFAULT_WEB_DIR, DEFAULT_WORKER_FILE } from '../app-files.js';

/** bcrypt's work factor unless DASHBOARD_PASSWORD_COST says otherwise. */
export const DEFAULT_PASSWORD_COST = 12;

export class DashboardConfig extends CommonConfig {
  /** DASHBOARD_DATABASE_URL: the service's own database user, for when DATABASE_URL's user cannot create roles. */
  serviceDatabaseUrl?: string;
  port!: number;
  /** Signs the CSRF tokens; a random one per process outside production. */
  secret!: string;
  /** The public API's base URL, shown to users and put into the pairing QR code. */
  publicApiUrl!: string;
  /** Whether that URL names this machine itself, which no phone can reach. */
  publicApiUrlIsLoopback!: boolean;
  /** SMSQ_TIMEZONE: the zone of clients created without one, and of times that belong to no client. */
  defaultTimeZone!: string;
  /** DASHBOARD_WORKER_FILE: the reference worker offered for download, when the file exists. */
  workerFile!: string;
  /** The built front end served for every non-API GET. */
  webDir!: string;
  /** DASHBOARD_PUBLIC_URL: where users reach the dashboard, for links sent to them (a password reset). */
  publicUrl!: string;
  /** SMSQ_SMTP_URL: the mail server password reset links are sent through; without it they go to the log. */
  smtpUrl?: string;
  /** SMSQ_MAIL_FROM: the sender of that mail; required with SMSQ_SMTP_URL. */
  mailFrom?: string;
  /**
   * DASHBOARD_RESET_LINKS_IN_LOG: without SMTP, reset links go to the log (the default in
   * development). In production it must be asked for: whoever reads the logs could take any account.
   */
  resetLinksInLog!: boolean;
  /**
   * DASHBOARD_TRUST_PROXY: the reverse proxies in front (addresses or CIDRs, comma-separated),
   * whose X-Forwarded-For gives the client's address to the sign-in and reset
   * throttles. Unset: the connection's address, so behind a proxy every client shares one.
   */
  trustProxy?: string[];
  /** A session ends after this long without a request. */
  sessionIdleS!: number;
  /** …and after this long whatever happens. */
  sessionMaxS!: number;
  /**
   * DASHBOARD_PASSWORD_COST: bcrypt's work factor for new password hashes, 12 by default (about a
   * quarter of a second a check on a current server); each step doubles it. Hashes made at another
   * cost keep verifying. Lower only where passwords protect nothing, as in tests.
   */
  passwordCost!: number;
  /** SMSQ_SMPP_PORT: the port the smpp service takes binds on, shown with the SMPP credentials (2775 unless set). */
  smppPort!: number;
  /** SMSQ_RETENTION_INTERVAL_S: how often the retention prunes run. */
  retentionIntervalS!: number;
  /** SMSQ_RETENTION_PASSWORD_RESET_S: an unused password reset is deleted this long after it expired. */
  passwordResetRetentionS!: number;
}

export function readDashboardConfig(env: EnvReader): DashboardConfig {
  const production = process.env['NODE_ENV'] === 'production';
  const secret = env.optionalString('DASHBOARD_SECRET');
  // The gateway listens on PORT (3000 by default); PORT is read only when no URL is given.
  const publicApiUrl = env.optionalString('DASHBOARD_PUBLIC_API_URL') ?? env.optionalString('SMSQ_BASE_URL') ?? `http://localhost:${env.port('PORT', 3000)}`;
  const defaultTimeZone = env.string('SMSQ_TIMEZONE', 'Europe/Belgrade');
  const port = env.port('DASHBOARD_PORT', 3001);
  const givenPublicUrl = env.optionalString('DASHBOARD_PUBLIC_URL');
  const publicUrl = givenPublicUrl ?? `http://localhost:${port}`;
  const smtpUrl = env.optionalUrl('SMSQ_SMTP_URL', ['smtp', 'smtps']);
  const mailFrom = env.optionalString('SMSQ_MAIL_FROM');
  const config = Object.assign(new DashboardConfig(), {
    ...readCommonConfig(env),
    serviceDatabaseUrl: env.optionalUrl('DASHBOARD_DATABASE_URL', ['postgres', 'postgresql']),
    port,
    secret: secret ?? randomBytes(32).toString('base64url'),
    publicApiUrl: publicApiUrl.replace(/\/+$/, ''),
    publicApiUrlIsLoopback: isLoopbackUrl(publicApiUrl),
    defaultTimeZone,
    workerFile: env.optionalString('DASHBOARD_WORKER_FILE') ?? DEFAULT_WORKER_FILE,
    webDir: env.optionalString('DASHBOARD_WEB_DIR') ?? DEFAULT_WEB_DIR,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    smtpUrl,
    mailFrom,
    resetLinksInLog: env.bool('DASHBOARD_RESET_LINKS_IN_LOG', !production),
    trustProxy: proxiesOf(env.optionalString('DASHBOARD_TRUST_PROXY')),
    sessionIdleS: env.int('DASHBOARD_SESSION_IDLE_S', 12 * 3600, { min: 60, max: 30 * 86_400 }),
    sessionMaxS: env.int('DASHBOARD_SESSION_MAX_S', 7 * 86_400, { min: 60, max: 90 * 86_400 }),
    passwordCost: env.int('DASHBOARD_PASSWORD_COST', DEFAULT_PASSWORD_COST, { min: 4, max: 15 }),
    smppPort: readSmppPort(env),
    retentionIntervalS: readRetentionIntervalS(env),
    passwordResetRetentionS: readPasswordResetRetentionS(env),
  });
  env.require(!production || secret !== undefined, 'DASHBOARD_SECRET is required in production (at least 32 characters)');
  env.require(secret === undefined || secret.length >= 32, 'DASHBOARD_SECRET must be at least 32 characters');
  env.require(isHttpUrl(publicApiUrl), `DASHBOARD_PUBLIC_API_URL (or SMSQ_BASE_URL) must be an http or https URL, got ${JSON.stringify(publicApiUrl)}`);
  env.require(isHttpUrl(publicUrl), `DASHBOARD_PUBLIC_URL must be an http or https URL, got ${JSON.stringify(publicUrl)}`);
  env.require(smtpUrl === undefined || mailFrom !== undefined, 'SMSQ_MAIL_FROM is required with SMSQ_SMTP_URL (the sender of password reset mail, e.g. "smsq <no-reply@example.com>")');
  env.require(mailFrom === undefined || isMailbox(mailFrom), `SMSQ_MAIL_FROM must be an e-mail address, optionally with a name ("smsq <no-reply@example.com>"), got ${JSON.stringify(mailFrom)}`);
  env.require(!production || smtpUrl === undefined || givenPublicUrl !== undefined, 'DASHBOARD_PUBLIC_URL is required in production with SMSQ_SMTP_URL: it is where the mailed password reset links lead');
  env.require(config.trustProxy === undefined || config.trustProxy.every(isAddressOrCidr), `DASHBOARD_TRUST_PROXY must be proxy addresses or CIDRs, comma-separated, got ${JSON.stringify(env.optionalString('DASHBOARD_TRUST_PROXY'))}`);
  env.require(!production || config.passwordCost >= 10, `DASHBOARD_PASSWORD_COST must be at least 10 in production (12 by default), got ${config.passwordCost}`);
  env.require(isTimeZone(defaultTimeZone), `SMSQ_TIMEZONE must be an IANA time zone, got ${JSON.stringify(defaultTimeZone)}`);
  return config;
}

function proxiesOf(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((part) => part.trim());
}

function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/** `a@b.c` or `Name <a@b.c>`: what a From header takes. */
function isMailbox(value: string): boolean {
  return /^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(value.trim());
}
