import { EventEmitter } from 'node:events';
import { WorkerLog, type LogSink } from '../logging/worker-log.js';

/** A logger that keeps the worker's lines (`level message`) for tests to read and wait on. */
export class RecordingLogger implements LogSink {
  readonly lines: string[] = [];
  private readonly events = new EventEmitter();

  log(message: unknown): void {
    this.record('log', message);
  }

  warn(message: unknown): void {
    this.record('warn', message);
  }

  error(message: unknown): void {
    this.record('error', message);
  }

  /** Resolves with the first line, past or future, that matches. */
  waitForLine(pattern: RegExp): Promise<string> {
    return new Promise((resolve) => {
      const check = (): void => {
        const line = this.lines.find((candidate) => pattern.test(candidate));
        if (line === undefined) return;
        this.events.off('line', check);
        resolve(line);
      };
      this.events.on('line', check);
      check();
    });
  }

  private record(level: string, message: unknown): void {
    this.lines.push(`${level} ${typeof message === 'string' ? message : JSON.stringify(message)}`);
    this.events.emit('line');
  }
}

export function recordingLog(): { log: WorkerLog; logger: RecordingLogger } {
  const logger = new RecordingLogger();
  return { log: new WorkerLog(logger, 'text'), logger };
}
