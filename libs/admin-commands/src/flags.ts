import { InvalidRequestError, MAX_SIM_LIMIT } from '@smsq/contracts';

export interface CommandLine {
  noun: string;
  verb: string;
  flags: Map<string, string>;
}

/** `<noun> <verb> [--flag value]…`; a flag given twice or without a value is an error. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [noun, verb, ...rest] = argv;
  if (!noun || !verb || noun.startsWith('--') || verb.startsWith('--')) {
    throw new InvalidRequestError('usage: admin <noun> <verb> [--flag value]…');
  }
  const flags = new Map<string, string>();
  for (let index = 0; index < rest.length; index += 2) {
    const flag = rest[index] ?? '';
    const value = rest[index + 1];
    if (!flag.startsWith('--') || flag.length < 3) throw new InvalidRequestError(`expected a --flag, got ${JSON.stringify(flag)}`);
    if (value === undefined) throw new InvalidRequestError(`${flag} needs a value`);
    const name = flag.slice(2);
    if (flags.has(name)) throw new InvalidRequestError(`${flag} is given twice`);
    flags.set(name, value);
  }
  return { noun, verb, flags };
}

/** Reads the flags a command takes; an unknown or missing flag, or a non-integer id, is an error. */
export class Flags {
  private readonly used = new Set<string>();

  constructor(private readonly flags: Map<string, string>) {}

  text(name: string): string {
    const value = this.optionalText(name);
    if (value === undefined) throw new InvalidRequestError(`--${name} is required`);
    return value;
  }

  optionalText(name: string): string | undefined {
    this.used.add(name);
    return this.flags.get(name);
  }

  integer(name: string): number {
    const value = this.optionalInteger(name);
    if (value === undefined) throw new InvalidRequestError(`--${name} is required`);
    return value;
  }

  optionalInteger(name: string): number | undefined {
    const value = this.optionalText(name);
    if (value === undefined) return undefined;
    if (!/^\d{1,10}$/.test(value)) throw new InvalidRequestError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
    return Number(value);
  }

  /** A SIM limit: a whole number from `min` to `max` (100,000 unless told), `none` to remove the limit (null), or not given (undefined). */
  optionalSimLimit(name: string, min: number, max: number = MAX_SIM_LIMIT): number | null | undefined {
    const value = this.optionalText(name);
    if (value === undefined) return undefined;
    if (value === 'none') return null;
    const refused = () => new InvalidRequestError(`--${name} must be a whole number from ${min} to ${max}, or none for no limit; got ${JSON.stringify(value)}`);
    if (!/^-?\d{1,15}$/.test(value)) throw refused();
    const limit = Number(value);
    if (limit < min || limit > max) throw refused();
    return limit;
  }

  /** Call after reading: a flag the command does not take is a mistake worth telling. */
  rejectUnknown(): void {
    const unknown = [...this.flags.keys()].filter((name) => !this.used.has(name));
    if (unknown.length > 0) throw new InvalidRequestError(`unknown flag ${unknown.map((name) => `--${name}`).join(', ')}`);
  }
}
