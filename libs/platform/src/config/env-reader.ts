/** A configuration value that is missing or malformed; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads typed values from the environment and collects every problem, so one start reports all
 * bad variables at once; `done()` throws them together.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: Env = process.env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  private problem<T>(name: string, expected: string, value: string, fallback: T): T {
    this.problems.push(`${name} must be ${expected}, got ${JSON.stringify(value)}`);
    return fallback;
  }

  string(name: string, fallback?: string): string {
    const value = this.raw(name) ?? fallback;
    if (value === undefined) {
      this.problems.push(`${name} is required`);
      return '';
    }
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const min = range.min ?? Number.MIN_SAFE_INTEGER;
    const max = range.max ?? Number.MAX_SAFE_INTEGER;
    const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      return this.problem(name, `an integer from ${min} to ${max}`, value, fallback);
    }
    return parsed;
  }

  port(name: string, fallback: number): number {
    return this.int(name, fallback, { min: 0, max: 65_535 });
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (/^(true|1|yes)$/i.test(value)) return true;
    if (/^(false|0|no)$/i.test(value)) return false;
    return this.problem(name, 'true or false', value, fallback);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    return match ?? this.problem(name, `one of ${allowed.join(', ')}`, value, fallback);
  }

  url(name: string, fallback: string, protocols: readonly string[]): string {
    return this.urlOrFallback(name, this.raw(name) ?? fallback, fallback, protocols);
  }

  optionalUrl(name: string, protocols: readonly string[]): string | undefined {
    const value = this.raw(name);
    return value === undefined ? undefined : this.urlOrFallback(name, value, undefined, protocols);
  }

  private urlOrFallback<T extends string | undefined>(name: string, value: string, fallback: T, protocols: readonly string[]): string | T {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || !protocols.includes(url.protocol.replace(/:$/, ''))) {
      // A URL may carry a password, which must not reach the logs.
      if (url?.password) url.password = '***';
      this.problems.push(`${name} must be a ${protocols.join(' or ')} URL, got ${url ? JSON.stringify(url.toString()) : 'something that is not a URL'}`);
      return fallback;
    }
    return value;
  }

  /** A check across values that is not a single variable's type. */
  require(condition: boolean, problem: string): void {
    if (!condition) this.problems.push(problem);
  }

  done(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
