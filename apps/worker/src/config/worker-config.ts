import type { EnvReader } from '@smsq/platform/env';
import { NO_PASSPHRASE, type PassphraseLookup, type WorkerPassphrase } from '../encryption/worker-passphrase.js';
import { defaultStateDir, DRIVERS, type DriverName, type PairedPhone } from '../pairing/paired-phone.js';

/** smsq's cap on one claim (`pending-tasks?limit=`, `task-statuses`' `next`): the worker ships with the server. */
export const MAX_CLAIM_LIMIT = 100;

/** Backoff between retries: the first delay, doubled each time up to the cap. */
export interface BackoffRange {
  initialMs: number;
  maxMs: number;
}

/** How long the worker waits between tries; fixed in code, replaced in tests. */
export interface RetryTimings {
  /** A poll that found smsq unreachable, busy (503, 429) or answering something unusable. */
  poll: BackoffRange;
  /** A poll refused for its token (401, 403): nothing changes quickly, so wait longer. */
  auth: BackoffRange;
  /** A report that found smsq unreachable or busy; retried until smsq takes it (task-reporter.ts). */
  report: BackoffRange;
  /** An empty answer sooner than this is followed by a pause, so a server that ignores `wait` is not hammered. */
  minPollIntervalMs: number;
  /** Extra time a long poll may take beyond `wait` before it counts as lost. */
  pollGraceMs: number;
  /** One report request. */
  reportTimeoutMs: number;
}

export const DEFAULT_RETRY_TIMINGS: RetryTimings = {
  poll: { initialMs: 1_000, maxMs: 30_000 },
  auth: { initialMs: 5_000, maxMs: 30_000 },
  report: { initialMs: 500, maxMs: 30_000 },
  minPollIntervalMs: 1_000,
  pollGraceMs: 10_000,
  reportTimeoutMs: 10_000,
};

/** SMSGate's Local Server (docs/guide/phones.md): its login stays here, never in smsq. */
export interface SmsGateSettings {
  user: string;
  password: string;
  deliveryReports: boolean;
  /** The app gives up on an SMS (its ttl) this long before smsq's claim lapses. */
  ttlMarginMs: number;
  /** Between two reads of the app's inbox for replies. */
  inboxPollIntervalMs: number;
  /** Where the app's webhooks reach this worker; undefined when no receiver runs (replies are then pulled). */
  webhook: { listenHost: string; listenPort: number; publicUrl: string; signingKey: string | undefined } | undefined;
}

export interface WorkerConfig {
  /** smsq's public base address, without a trailing slash. */
  baseUrl: string;
  /** The raw worker token; sent as `X-Worker-Token`, never logged. */
  token: string;
  /** Long-poll seconds asked of `pending-tasks`. */
  waitS: number;
  /** Poll loops running side by side, each delivering one task at a time. */
  concurrency: number;
  /**
   * The most tasks one claim takes (`WORKER_CLAIM_LIMIT`, 1–100); undefined: what the phone sends
   * in a claim's window at its pace (claim-sizer.ts). 1 keeps to DESIGN §3's single claims.
   */
  claimLimit: number | undefined;
  /** One send to a generic HTTP gateway, or one request to a phone. */
  sendTimeoutMs: number;
  logFormat: 'json' | 'text';
  timings: RetryTimings;
  /** How this worker reaches its phone. */
  driver: DriverName;
  /** Where the paired phone and the drivers' cursors are kept. */
  stateDir: string;
  /**
   * SMS parts per phone per minute (0: unpaced) plus up to `jitterMs` of random spacing while paced.
   * A task whose phone has a pace in smsq (`per_minute`) keeps that one, this one its upper bound;
   * one whose phone has a `jitter` in smsq takes that one instead of `jitterMs` (send-pacer.ts).
   */
  pacing: { perMinute: number; jitterMs: number };
  /** The SIM to send from (1-based), or the phone's default; a task's `sim` from smsq comes first. */
  simNumber: number | undefined;
  /** The phone's own address for replies and health, when the worker is not on the phone. */
  gatewayUrl: string | undefined;
  smsgate: SmsGateSettings;
  /** How long a Termux:API program may take: they hang for ever when the Termux:API app is missing. */
  termuxTimeoutMs: number;
  /** How often the phone's battery and connection are reported to smsq (0: never). */
  healthIntervalMs: number;
  /** After a stop, how long a phone may still take to settle the SMS in hand before it is left to the lease. */
  stopGraceMs: number;
  /**
   * The client's passphrase, which opens encrypted tasks (docs/guide/encryption.md); never sent to smsq,
   * never logged. Undefined: an encrypted task is reported failed, `cannot_decrypt`.
   */
  passphrase: WorkerPassphrase | undefined;
  /** WORKER_ENCRYPT_REPLIES: replies are sealed with the passphrase before they go to smsq. */
  encryptReplies: boolean;
}

/** Well under Android's limit of 30 SMS a minute per app, so the phone never asks its user for permission. */
const PHONE_SENDS_PER_MINUTE = 12;

/**
 * The worker's settings. The passphrase comes looked up apart (`lookUpPassphrase`), as it is taken
 * exactly as given and this reader trims; its problems are reported here with the rest.
 */
export function readWorkerConfig(env: EnvReader, paired?: PairedPhone, passphrase: PassphraseLookup = NO_PASSPHRASE): WorkerConfig {
  const token = env.optionalString('WORKER_TOKEN') ?? paired?.workerToken ?? '';
  env.require(token !== '', 'WORKER_TOKEN is required (or pair this worker first: smsq-worker pair \'<QR text>\')');
  // The value itself stays out of the message: it is a secret.
  env.require(token === '' || /^[\x21-\x7e]+$/.test(token), 'WORKER_TOKEN must be printable ASCII without spaces');
  const driver = env.oneOf('WORKER_DRIVER', DRIVERS, paired?.driver ?? 'http');
  const onPhone = driver !== 'http';
  const webhookPort = env.optionalString('SMSGATE_WEBHOOK_PORT') === undefined ? undefined : env.port('SMSGATE_WEBHOOK_PORT', 0);
  const smsgate: SmsGateSettings = {
    user: driver === 'smsgate' ? env.string('SMSGATE_USER') : (env.optionalString('SMSGATE_USER') ?? ''),
    password: driver === 'smsgate' ? env.string('SMSGATE_PASSWORD') : (env.optionalString('SMSGATE_PASSWORD') ?? ''),
    deliveryReports: env.bool('SMSGATE_DELIVERY_REPORTS', true),
    ttlMarginMs: env.int('SMSGATE_TTL_MARGIN_S', 30, { min: 1, max: 3_600 }) * 1000,
    inboxPollIntervalMs: env.int('SMSGATE_INBOX_POLL_S', 15, { min: 1, max: 3_600 }) * 1000,
    webhook:
      webhookPort === undefined
        ? undefined
        : {
            listenHost: env.string('SMSGATE_WEBHOOK_HOST', '127.0.0.1'),
            listenPort: webhookPort,
            publicUrl: env.url('SMSGATE_WEBHOOK_URL', `http://127.0.0.1:${webhookPort}`, ['http', 'https']).replace(/\/+$/, ''),
            signingKey: env.optionalString('SMSGATE_WEBHOOK_SIGNING_KEY'),
          },
  };
  const simNumber = env.optionalString('WORKER_SIM') === undefined ? undefined : env.int('WORKER_SIM', 1, { min: 1, max: 8 });
  for (const problem of passphrase.problems) env.require(false, problem);
  const encryptReplies = env.bool('WORKER_ENCRYPT_REPLIES', false);
  env.require(
    !encryptReplies || passphrase.found !== undefined || passphrase.problems.length > 0,
    'WORKER_ENCRYPT_REPLIES=true needs the client\'s passphrase to seal replies with: set WORKER_PASSPHRASE or WORKER_PASSPHRASE_FILE, or pair with --passphrase',
  );
  return {
    baseUrl: env.url('SMSQ_BASE_URL', paired?.baseUrl ?? 'http://127.0.0.1:3000', ['http', 'https']).replace(/\/+$/, ''),
    token,
    waitS: env.int('WORKER_WAIT_S', 25, { min: 0, max: 30 }),
    concurrency: env.int('WORKER_CONCURRENCY', 1, { min: 1, max: 32 }),
    claimLimit: env.optionalString('WORKER_CLAIM_LIMIT') === undefined ? undefined : env.int('WORKER_CLAIM_LIMIT', 1, { min: 1, max: MAX_CLAIM_LIMIT }),
    sendTimeoutMs: env.int('WORKER_SEND_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
    logFormat: env.oneOf('SMSQ_LOG_FORMAT', ['json', 'text'] as const, process.env['NODE_ENV'] === 'production' ? 'json' : 'text'),
    timings: DEFAULT_RETRY_TIMINGS,
    driver,
    stateDir: env.string('WORKER_STATE_DIR', defaultStateDir({})),
    pacing: {
      perMinute: env.int('WORKER_SENDS_PER_MINUTE', onPhone ? PHONE_SENDS_PER_MINUTE : 0, { min: 0, max: 600 }),
      jitterMs: env.int('WORKER_SEND_JITTER_MS', onPhone ? 2_000 : 0, { min: 0, max: 600_000 }),
    },
    simNumber,
    gatewayUrl: env.optionalUrl('SMSGATE_URL', ['http', 'https']) ?? paired?.gatewayUrl ?? undefined,
    smsgate,
    termuxTimeoutMs: env.int('WORKER_TERMUX_TIMEOUT_S', 20, { min: 1, max: 600 }) * 1000,
    healthIntervalMs: env.int('WORKER_HEALTH_INTERVAL_S', 300, { min: 0, max: 86_400 }) * 1000,
    stopGraceMs: env.int('WORKER_STOP_GRACE_S', 10, { min: 0, max: 600 }) * 1000,
    passphrase: passphrase.found,
    encryptReplies,
  };
}
