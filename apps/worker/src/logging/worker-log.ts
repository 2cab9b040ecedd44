
export type LogFields = Record<string, string | number | boolean | null | undefined>;
type Level = 'log' | 'warn' | 'error';

/** Where lines go: the console in production (console-sink.ts), a recorder in tests. */
export type LogSink = Record<Level, (message: unknown, context: string) => void>;

/**
 * One line per event (`claimed`, `delivered`, `reported`, …) with its fields: `key=value` pairs in
 * text, an object in JSON. Callers pass only what is safe to print: never the worker token.
 */
export class WorkerLog {
  constructor(
    private readonly logger: LogSink,
    private readonly format: 'json' | 'text',
    private readonly context = 'worker',
  ) {}

  info(event: string, fields: LogFields = {}): void {
    this.write('log', event, fields);
  }

  warn(event: string, fields: LogFields = {}): void {
    this.write('warn', event, fields);
  }

  error(event: string, fields: LogFields = {}): void {
    this.write('error', event, fields);
  }

  private write(level: Level, event: string, fields: LogFields): void {
    const defined = Object.entries(fields).filter(([, value]) => value !== undefined);
    const message = this.format === 'json' ? { event, ...Object.fromEntries(defined) } : [event, ...defined.map(([key, value]) => `${key}=${formatValue(value)}`)].join(' ');
    this.logger[level](message, this.context);
  }
}

function formatValue(value: unknown): string {
  const text = String(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}
