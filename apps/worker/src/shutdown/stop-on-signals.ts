import type { WorkerLog } from '../logging/worker-log.js';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

interface SignalSource {
  on(signal: (typeof SIGNALS)[number], listener: (signal: string) => void): unknown;
  off(signal: (typeof SIGNALS)[number], listener: (signal: string) => void): unknown;
}

/**
 * SIGTERM or SIGINT stops the worker gracefully: no new polls, tasks in hand still delivered and
 * reported. A second signal exits at once; what was in hand goes back to pending with its lease.
 * Returns a function that removes the handlers.
 */
export function stopOnSignals(worker: { stop(): void }, log: WorkerLog, source: SignalSource = process, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let received = 0;
  const onSignal = (signal: string): void => {
    received++;
    if (received === 1) {
      log.info('signal received', { signal, action: 'finishing tasks in hand, then exiting' });
      worker.stop();
      return;
    }
    log.error('signal received again', { signal, action: 'exiting now; unreported tasks return to pending when their claims expire' });
    exit(1);
  };
  for (const signal of SIGNALS) source.on(signal, onSignal);
  return () => {
    for (const signal of SIGNALS) source.off(signal, onSignal);
  };
}
