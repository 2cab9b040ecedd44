import { UnreadableBody } from '../errors/smsgate-errors.js';
import { readBodyDate } from './app-dates.js';

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * Reads a JSON body's fields the way the app's Gson binds them to a Kotlin class: a missing or
 * null field is absent, a number may stand for a string and a numeral for a number; anything Gson
 * could not convert refuses the whole body, as Ktor does, naming the request class.
 */
export class GsonFields {
  private readonly fields: Record<string, unknown>;

  constructor(
    body: unknown,
    private readonly requestClass: string,
  ) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UnreadableBody(requestClass);
    this.fields = body as Record<string, unknown>;
  }

  has(key: string): boolean {
    return this.fields[key] !== undefined && this.fields[key] !== null;
  }

  string(key: string): string | undefined {
    return this.toString(this.fields[key]);
  }

  int(key: string, min = INT_MIN, max = INT_MAX): number | undefined {
    const value = this.fields[key];
    if (value === undefined || value === null) return undefined;
    const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) throw this.unreadable();
    return number;
  }

  boolean(key: string): boolean | undefined {
    const value = this.fields[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    // Gson reads a quoted boolean with Boolean.parseBoolean: only "true" is true.
    if (typeof value === 'string') return value.toLowerCase() === 'true';
    throw this.unreadable();
  }

  date(key: string): Date | undefined {
    const value = this.fields[key];
    if (value === undefined || value === null) return undefined;
    const date = typeof value === 'string' ? readBodyDate(value) : undefined;
    if (date === undefined) throw this.unreadable();
    return date;
  }

  stringList(key: string): Array<string | null> | undefined {
    const value = this.fields[key];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw this.unreadable();
    return value.map((item: unknown) => (item === null ? null : this.toString(item)!));
  }

  object(key: string): GsonFields | undefined {
    const value = this.fields[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw this.unreadable();
    return new GsonFields(value, this.requestClass);
  }

  private toString(value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.unreadable();
  }

  private unreadable(): UnreadableBody {
    return new UnreadableBody(this.requestClass);
  }
}
