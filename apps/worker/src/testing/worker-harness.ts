import { loadConfig } from '@smsq/platform/env';
import { readWorkerConfig, type RetryTimings, type WorkerConfig } from '../config/worker-config.js';
import type { PhoneDriver } from '../drivers/phone-driver.js';
import { lookUpPassphrase } from '../encryption/worker-passphrase.js';
import { Worker } from '../worker.js';

import type { WorkerLog } from '../logging/worker-log.js';
import { recordingLog, type RecordingLogger } from './recording-log.js';
import { StandInServer, type Answer, type Handler } from './stand-in-server.js';

export const TOKEN = 'smsq_wkr_TestTokenForTheStandInSmsq0123456789';

/** Short waits so tests run in milliseconds; no jitter, so delays are exact. */
export const FAST_TIMINGS: RetryTimings = {
  poll: { initialMs: 50, maxMs: 200 },
  auth: { initialMs: 150, maxMs: 600 },
  report: { initialMs: 100, maxMs: 1_000 },
  minPollIntervalMs: 0,
  pollGraceMs: 2_000,
  reportTimeoutMs: 2_000,
};

export const POLL = 'GET /smsapi/pending-tasks';
export const REPORT = 'POST /smsapi/task-status';
export const REPORTS = 'POST /smsapi/task-statuses';
export const SEND = 'POST /send';

/** A task as `pending-tasks` answers it (DESIGN.md §3). */
export function pendingTask(gatewayUrl: string | null, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 7,
    recipient: '+381641234567',
    message: 'Hello from smsq',
    phone_id: 3,
    client_id: 2,
    scheduled_at: '2026-05-04 10:00:00',
    gateway_url: gatewayUrl,
    attempt: 1,
    claim_expires_at: new Date(Date.now() + 300_000).toISOString(),
    ...overrides,
  };
}

/** What a stand-in answers, or how to make it when the request comes (a claim's lapse counted from when it was handed over). */
type Made<T> = T | (() => T);
const made = <T>(answer: Made<T>): T => (typeof answer === 'function' ? (answer as () => T)() : answer);

/**
 * Answers polls with the given answers in turn, then as an idle smsq does: holds the request for
 * `wait` seconds and answers `{}` (or until the worker goes away).
 */
export function pollAnswers(...answers: Made<Answer>[]): Handler {
  const queue = [...answers];
  return async (request) => {
    const next = queue.shift();
    if (next !== undefined) return made(next);
    const waitS = Number(request.query.get('wait') ?? 0);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, waitS * 1000)), request.abandoned]);
    return { status: 200, body: {} };
  };
}

/**
 * Answers batched polls (`?limit=N`) with the given batches of tasks in turn, each cut to the
 * limit asked, then as an idle smsq does: holds the request for `wait` seconds and answers no tasks.
 */
export function batchAnswers(...batches: Made<Record<string, unknown>[]>[]): Handler {
  const queue = [...batches];
  return async (request) => {
    const next = queue.shift();
    if (next !== undefined) return { status: 200, body: { tasks: made(next).slice(0, Number(request.query.get('limit') ?? 1)) } };
    const waitS = Number(request.query.get('wait') ?? 0);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, waitS * 1000)), request.abandoned]);
    return { status: 200, body: { tasks: [] } };
  };
}

/** Answers task-statuses as smsq does when every report is taken: each as sent or failed, no next tasks. */
export const acceptReports: Handler = (request) => {
  const { reports, next } = request.body as { reports: Array<{ id: number; status: string }>; next?: number };
  const results = reports.map((report) => ({ ok: true, id: report.id, status: report.status === 'failed' ? 'failed' : report.status === 'released' ? 'pending' : 'sent' }));
  return { status: 200, body: next === undefined ? { results } : { results, tasks: [] } };
};

export interface Harness {
  smsq: StandInServer;
  gateway: StandInServer;
  worker: Worker;
  logger: RecordingLogger;
  log: WorkerLog;
  config: WorkerConfig;
  /** The worker's `run()`; started by `start()`. */
  running?: Promise<void>;
  start(): void;
  close(): Promise<void>;
}

/**
 * A worker against a stand-in smsq and a stand-in generic gateway (or `driver`, a phone of the
 * spec's own). `env` may hold WORKER_PASSPHRASE, taken as `run` takes it; never a state folder's.
 */
export async function harness(options: { env?: Record<string, string>; timings?: Partial<RetryTimings>; driver?: PhoneDriver } = {}): Promise<Harness> {
  const smsq = await StandInServer.start({ [POLL]: pollAnswers(), [REPORT]: () => ({ status: 200, body: { ok: true } }) });
  const gateway = await StandInServer.start({ [SEND]: () => ({ status: 200, body: { ok: true, message_id: 'msg-1' } }) });
  // One task per claim, as DESIGN §3 claims and reports them, unless a spec asks for batches (delivery-worker-batches.spec.ts).
  const env = { WORKER_TOKEN: TOKEN, SMSQ_BASE_URL: smsq.url, WORKER_WAIT_S: '1', WORKER_CLAIM_LIMIT: '1', ...options.env };
  const config: WorkerConfig = {
    ...loadConfig((reader) => readWorkerConfig(reader, undefined, lookUpPassphrase(env)), env),
    timings: { ...FAST_TIMINGS, ...options.timings },
  };
  const { log, logger } = recordingLog();
  const worker = new Worker(config, log, options.driver, () => 0.5);
  const self: Harness = {
    smsq,
    gateway,
    worker,
    logger,
    log,
    config,
    start: () => {
      self.running = worker.run();
    },
    close: async () => {
      worker.stop();
      await self.running;
      await Promise.all([smsq.close(), gateway.close()]);
    },
  };
  return self;
}
