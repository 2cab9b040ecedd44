import { EnvReader } from './env-reader.js';

export type SettingKind = 'string' | 'int' | 'port' | 'bool' | 'oneOf' | 'url';

/** One variable as a configuration reader asked for it: what `npm run docs` lists in docs/reference/configuration.md. */
export interface SettingRead {
  name: string;
  kind: SettingKind;
  /** Read with `optionalString` or `optionalUrl` (also before a typed read): unset means something of its own, there is no default. */
  optional: boolean;
  /** Read with `string` and no fallback, and never optionally: a start without it stops. */
  required: boolean;
  /** What an unset variable reads as; absent when optional or required. */
  fallback?: string | number | boolean;
  min?: number;
  max?: number;
  /** `oneOf`'s values. */
  allowed?: readonly string[];
  /** A URL's schemes. */
  protocols?: readonly string[];
}

type Read = Omit<SettingRead, 'optional' | 'required'> & { optional?: boolean };

/**
 * An EnvReader that reads exactly as the services' does and also notes every variable asked for,
 * with its kind, default and range; `settings()` merges the reads of one variable. Only the reference
 * generator (scripts/docs-reference.mjs) uses it, passing it to the same `read…Config` functions
 * the services validate their start with, so the page cannot list a setting they do not read.
 */
export class RecordingEnvReader extends EnvReader {
  private readonly reads: Read[] = [];
  /** A read inside a read (`port` reads through `int`) is the outer one's. */
  private depth = 0;

  private recorded<T>(read: Read, value: () => T): T {
    if (this.depth === 0) this.reads.push(read);
    this.depth += 1;
    try {
      return value();
    } finally {
      this.depth -= 1;
    }
  }

  override string(name: string, fallback?: string): string {
    return this.recorded({ name, kind: 'string', ...(fallback === undefined ? {} : { fallback }) }, () => super.string(name, fallback));
  }

  override optionalString(name: string): string | undefined {
    return this.recorded({ name, kind: 'string', optional: true }, () => super.optionalString(name));
  }

  override int(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
    return this.recorded({ name, kind: 'int', fallback, ...range }, () => super.int(name, fallback, range));
  }

  override port(name: string, fallback: number): number {
    return this.recorded({ name, kind: 'port', fallback, min: 0, max: 65_535 }, () => super.port(name, fallback));
  }

  override bool(name: string, fallback: boolean): boolean {
    return this.recorded({ name, kind: 'bool', fallback }, () => super.bool(name, fallback));
  }

  override oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    return this.recorded({ name, kind: 'oneOf', fallback, allowed }, () => super.oneOf(name, allowed, fallback));
  }

  override url(name: string, fallback: string, protocols: readonly string[]): string {
    return this.recorded({ name, kind: 'url', fallback, protocols }, () => super.url(name, fallback, protocols));
  }

  override optionalUrl(name: string, protocols: readonly string[]): string | undefined {
    return this.recorded({ name, kind: 'url', optional: true, protocols }, () => super.optionalUrl(name, protocols));
  }

  /**
   * Each variable read, in the order first read. Reads of one variable merge: a typed read gives
   * the kind and range, and one optional read (`optionalString('X') === undefined ? … : int('X', …)`)
   * makes it optional, the typed read's fallback then being no default.
   */
  settings(): SettingRead[] {
    const names = [...new Set(this.reads.map((read) => read.name))];
    return names.map((name) => {
      const reads = this.reads.filter((read) => read.name === name);
      const typed = reads.find((read) => read.kind !== 'string') ?? reads.find((read) => read.fallback !== undefined) ?? reads[0]!;
      const optional = reads.some((read) => read.optional === true);
      const { fallback, optional: _optional, ...rest } = typed;
      return {
        ...rest,
        optional,
        required: !optional && reads.some((read) => read.kind === 'string' && read.fallback === undefined),
        ...(optional || fallback === undefined ? {} : { fallback }),
      };
    });
  }
}
