import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Takes what a file held and answers it typed, or undefined when it is not a `T`. */
export type StateParser<T> = (stored: unknown) => T | undefined;

/**
 * One of the worker's JSON state files (the paired phone, the drivers' reply cursors, the Termux
 * send journal): read through its parser, so what comes back is a checked `T`; written whole
 * through a rename, so a crash leaves the old file or the new one; readable by this user only (the
 * folder 0700, the file 0600), as it may hold the worker token or someone's replies.
 */
export class StateFile<T> {
  /** `holds`: what the file is, for errors (`a paired phone`); `remedy`: what the user should do about a bad one. */
  constructor(
    readonly path: string,
    private readonly parse: StateParser<T>,
    private readonly holds: string,
    private readonly remedy = 'delete it to start afresh',
  ) {}

  /** The stored value, or undefined when there is no file; throws, naming the file, when it is not JSON or not what it should hold. */
  read(): T | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let stored: unknown;
    try {
      stored = JSON.parse(text);
    } catch {
      throw new Error(`${this.path} is not JSON; ${this.remedy}`);
    }
    const value = this.parse(stored);
    if (value === undefined) throw new Error(`${this.path} is not ${this.holds}; ${this.remedy}`);
    return value;
  }

  write(value: T): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}

/** A check of one field. */
export type FieldCheck = (field: unknown) => boolean;

export const isString: FieldCheck = (field) => typeof field === 'string';
export const isNumber: FieldCheck = (field) => typeof field === 'number' && Number.isFinite(field);
export const isInteger: FieldCheck = (field) => Number.isSafeInteger(field);
export const orNull = (check: FieldCheck): FieldCheck => (field) => field === null || check(field);
export const oneOf = (values: readonly unknown[]): FieldCheck => (field) => values.includes(field);
export const arrayOf = (check: FieldCheck): FieldCheck => (field) => Array.isArray(field) && field.every(check);
export const recordOf = (check: FieldCheck): FieldCheck => (field) => isObject(field) && Object.values(field).every(check);
export const objectWith = (checks: Record<string, FieldCheck>): FieldCheck => (field) => isObject(field) && Object.entries(checks).every(([name, check]) => check(field[name]));

/**
 * A parser for a JSON object whose fields pass `checks`; fields it does not name are kept, so a
 * file an older or newer worker wrote still loads.
 */
export function objectParser<T>(checks: Record<string, FieldCheck>): StateParser<T> {
  const matches = objectWith(checks);
  return (stored) => (matches(stored) ? (stored as T) : undefined);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
