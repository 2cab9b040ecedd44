import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { recordingLog } from '../testing/recording-log.js';
import { stopOnSignals } from './stop-on-signals.js';

describe(stopOnSignals.name, () => {
  it('stops the worker on the first SIGTERM or SIGINT and exits at once on the second', () => {
    const signals = new EventEmitter();
    const { log, logger } = recordingLog();
    const calls: string[] = [];

    stopOnSignals({ stop: () => calls.push('stop') }, log, signals, (code) => calls.push(`exit ${code}`));
    signals.emit('SIGINT', 'SIGINT');
    expect(calls).toEqual(['stop']);
    signals.emit('SIGTERM', 'SIGTERM');

    expect(calls).toEqual(['stop', 'exit 1']);
    expect(logger.lines[0]).toBe('log signal received signal=SIGINT action="finishing tasks in hand, then exiting"');
  });

  it('removes its handlers when asked', () => {
    const signals = new EventEmitter();
    const remove = stopOnSignals({ stop: () => undefined }, recordingLog().log, signals);

    remove();

    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });
});
