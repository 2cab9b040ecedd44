import type { EnvReader } from '@smsq/platform';

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
  /** A report that found smsq unreachable or busy; retried until the claim expires. */
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

export interface WorkerConfig {
  /** smsq's public base address, without a trailing slash. */
  baseUrl: string;
  /** The raw worker token; sent as `X-Worker-Token`, never logged. */
  token: string;
  /** Long-poll seconds asked of `pending-tasks`. */
  waitS: number;
  /** Poll loops running side by side, each delivering one task at a time. */
  concurrency: number;
  /** One send to a gateway. */
  sendTimeoutMs: number;
  logFormat: 'json' | 'text';
  timings: RetryTimings;
}

export function readWorkerConfig(env: EnvReader): WorkerConfig {
  const token = env.string('WORKER_TOKEN');
  // The value itself stays out of the message: it is a secret.
  env.require(token === '' || /^[\x21-\x7e]+$/.test(token), 'WORKER_TOKEN must be printable ASCII without spaces');
  return {
    baseUrl: env.url('SMSQ_BASE_URL', 'http://127.0.0.1:3000', ['http', 'https']).replace(/\/+$/, ''),
    token,
    waitS: env.int('WORKER_WAIT_S', 25, { min: 0, max: 30 }),
    concurrency: env.int('WORKER_CONCURRENCY', 1, { min: 1, max: 32 }),
    sendTimeoutMs: env.int('WORKER_SEND_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
    logFormat: env.oneOf('SMSQ_LOG_FORMAT', ['json', 'text'] as const, process.env['NODE_ENV'] === 'production' ? 'json' : 'text'),
    timings: DEFAULT_RETRY_TIMINGS,
  };
}
