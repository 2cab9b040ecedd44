import 'reflect-metadata';
import { createLogger, loadConfigOrExit } from '@smsq/platform';
import { readWorkerConfig } from './config/worker-config.js';
import { createWorker } from './delivery/create-worker.js';
import { WorkerLog } from './logging/worker-log.js';
import { stopOnSignals } from './shutdown/stop-on-signals.js';

const config = loadConfigOrExit(readWorkerConfig);
const log = new WorkerLog(createLogger('worker', config), config.logFormat);
const worker = createWorker(config, log);
stopOnSignals(worker, log);
log.info('started', { smsq: config.baseUrl, wait_s: config.waitS, concurrency: config.concurrency });
await worker.run();
process.exit(0);
