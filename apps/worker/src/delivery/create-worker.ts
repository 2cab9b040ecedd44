import type { WorkerConfig } from '../config/worker-config.js';
import { GatewayClient } from '../gateway/gateway-client.js';
import type { WorkerLog } from '../logging/worker-log.js';
import { SmsqClient } from '../smsq/smsq-client.js';
import { DeliveryWorker } from './delivery-worker.js';
import { TaskReporter } from './task-reporter.js';

/** The worker with its real HTTP clients, as `main.ts` and the tests build it. */
export function createWorker(config: WorkerConfig, log: WorkerLog, random: () => number = Math.random): DeliveryWorker {
  const smsq = new SmsqClient(config);
  return new DeliveryWorker(smsq, new GatewayClient(config.sendTimeoutMs), new TaskReporter(smsq, config.timings.report, log, random), log, {
    concurrency: config.concurrency,
    timings: config.timings,
    random,
  });
}
