import type { LogSink } from './worker-log.js';

type Level = keyof LogSink;
const LABELS: Record<Level, string> = { log: 'LOG', warn: 'WARN', error: 'ERROR' };

/**
 * Lines on standard output (errors on standard error), without a framework: the worker runs as one
 * file on phones. JSON lines carry level, time, context and the event's fields; text lines read
 * `[worker] 2026-11-23T10:00:00.000Z LOG delivered task=7`.
 */
export function consoleSink(format: 'json' | 'text', write: (level: Level, line: string) => void = writeLine): LogSink {
  const line = (level: Level) => (message: unknown, context: string) => {
    const time = new Date().toISOString();
    write(level, format === 'json' ? JSON.stringify({ level: LABELS[level].toLowerCase(), time, context, ...(typeof message === 'object' && message !== null ? message : { message }) }) : `[${context}] ${time} ${LABELS[level]} ${String(message)}`);
  };
  return { log: line('log'), warn: line('warn'), error: line('error') };
}

function writeLine(level: Level, line: string): void {
  (level === 'error' ? process.stderr : process.stdout).write(`${line}\n`);
}
