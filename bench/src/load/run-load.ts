import { Worker } from 'node:worker_threads';
import type { LoadPlan, LoadResult } from './load-plan.js';

/** Runs one load plan on a thread of its own and answers what it measured. */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: plan });
    let answered = false;
    worker.once('message', (result: LoadResult) => {
      answered = true;
      resolve(result);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the load generator stopped (exit ${code}) without a result`));
    });
  });
}
