import { InvalidRequestError, MAX_SIM_LIMIT } from '@smsq/contracts';

/** One flag a command takes, as its entry in `COMMANDS` declares it: what `admin help` and docs/reference/admin.md list. */
export interface FlagSpec {
  name: string;
  required: boolean;
  /** How its value is written in a usage line: `ID`, `N|none`. */
  value: string;
  meaning: string;
}

export function requiredFlag(name: string, value: string, meaning: string): FlagSpec {
  return { name, required: true, value, meaning };
}

export function optionalFlag(name: string, value: string, meaning: string): FlagSpec {
  return { name, required: false, value, meaning };
}

export interface CommandLine {
  noun: string;
  verb: string;
  flags: Map<string, string>;
}

/** `<noun> <verb> [--flag value]…`; a flag given twice or without a value is an error. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [noun, verb, ...rest] = argv;
  if (!noun || !verb || noun.startsWith('--') || verb.startsWith('--')) {
    throw new InvalidRequestError('usage: admin <noun> <verb> [--flag value]… (`npm run admin -- help` lists the commands)');
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

/**
 * Reads the flags a command takes; an unknown or missing flag, or a non-integer id, is an error.
 * Given the command's declared flags, reading any other is a mistake in the command itself, and
 * `rejectUnknown` refuses what is not declared.
 */
export class Flags {
  private readonly used = new Set<string>();

  constructor(
    private readonly flags: Map<string, string>,
    private readonly declared?: readonly FlagSpec[],
  ) {}

  /** The flags read so far. */
  get read(): ReadonlySet<string> {
    return this.used;
  }

  text(name: string): string {
    const value = this.optionalText(name);
    if (value === undefined) throw new InvalidRequestError(`--${name} is required`);
    return value;
  }

  optionalText(name: string): string | undefined {
    if (this.declared && !this.declared.some((flag) => flag.name === name)) throw new Error(`--${name} is read but not among its command's declared flags`);
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
    const known = this.declared ? new Set(this.declared.map((flag) => flag.name)) : this.used;
    const unknown = [...this.flags.keys()].filter((name) => !known.has(name));
    if (unknown.length > 0) throw new InvalidRequestError(`unknown flag ${unknown.map((name) => `--${name}`).join(', ')}`);
  }
}
