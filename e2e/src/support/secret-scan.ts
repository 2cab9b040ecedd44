import { Redis } from 'ioredis';
import pg from 'pg';

/** One place a secret could end up, as text: a log line, an error body, a table row, a Redis value. */
export interface Haystack {
  where: string;
  text: string;
}

export interface Leak {
  secret: string;
  where: string;
  excerpt: string;
}

/**
 * The forms of a secret worth searching for: the value itself and, for a credential, the part
 * after its visible prefix (which is stored on purpose), so a partial or re-prefixed copy is caught.
 */
export function formsOf(secret: string, visiblePrefixLength = 0): string[] {
  const forms = new Set([secret, encodeURIComponent(secret)]);
  if (visiblePrefixLength > 0) forms.add(secret.slice(visiblePrefixLength));
  return [...forms];
}

/** Every (secret, haystack) pair where a form of the secret occurs, with a little context. */
export function findLeaks(secrets: ReadonlyMap<string, string[]>, haystacks: readonly Haystack[]): Leak[] {
  const leaks: Leak[] = [];
  for (const [label, forms] of secrets) {
    for (const haystack of haystacks) {
      const form = forms.find((candidate) => haystack.text.includes(candidate));
      if (form === undefined) continue;
      const at = haystack.text.indexOf(form);
      leaks.push({ secret: label, where: haystack.where, excerpt: haystack.text.slice(Math.max(0, at - 120), at + form.length + 40) });
    }
  }
  return leaks;
}

/** Every row of every table of the given schemas, as JSON text, one haystack per row. */
export async function dumpDatabase(databaseUrl: string, schemas: readonly string[]): Promise<{ tables: string[]; rows: Haystack[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
      [schemas],
    );
    const rows: Haystack[] = [];
    for (const { table_schema: schema, table_name: table } of tables) {
      const name = `${quote(schema)}.${quote(table)}`;
      const { rows: found } = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`);
      for (const { row } of found) rows.push({ where: `db ${schema}.${table}`, text: row });
    }
    return { tables: tables.map(({ table_schema, table_name }) => `${table_schema}.${table_name}`), rows };
  } finally {
    await client.end();
  }
}

/** Every key under `<namespace>:` with its value, whatever its type; the key name is part of the text. */
export async function dumpRedis(redisUrl: string, namespace: string): Promise<Haystack[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const keys = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) keys.add(key);
    } while (cursor !== '0');
    const values: Haystack[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      let value: unknown;
      switch (type) {
        case 'string':
          value = await redis.get(key);
          break;
        case 'hash':
          value = await redis.hgetall(key);
          break;
        case 'list':
          value = await redis.lrange(key, 0, -1);
          break;
        case 'set':
          value = await redis.smembers(key);
          break;
        case 'zset':
          value = await redis.zrange(key, 0, -1, 'WITHSCORES');
          break;
        case 'stream':
          value = await redis.xrange(key, '-', '+');
          break;
        case 'none':
          continue; // expired between SCAN and TYPE
        default:
          value = `<unsupported type ${type}>`;
      }
      values.push({ where: `redis ${key} (${type})`, text: `${key} ${typeof value === 'string' ? value : JSON.stringify(value)}` });
    }
    return values;
  } finally {
    redis.disconnect();
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A dashboard browser as far as its API can tell: a cookie jar and the CSRF token from GET /api/auth/session. */
export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly onAnswer: (method: string, path: string, status: number, text: string) => void,
  ) {}

  async session(): Promise<{ status: number; body: any }> {
    const answer = await this.request('GET', '/api/auth/session');
    this.csrfToken = answer.body?.csrfToken;
    return answer;
  }

  async send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    if (!this.csrfToken) await this.session();
    const answer = await this.request(method, path, body);
    if (answer.body?.csrfToken) this.csrfToken = answer.body.csrfToken;
    return answer;
  }

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (this.csrfToken && method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (attributes.some((attribute) => attribute.trim() === 'Max-Age=0')) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    const text = await response.text();
    this.onAnswer(method, path, response.status, text);
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed };
  }
}
