import { ERROR_STATUS, isErrorCode } from '@smsq/contracts';
import { request } from 'node:http';

/** One request as the fuzzer sends it: headers as ordered pairs, so a name may repeat. */
export interface FuzzRequest {
  method: string;
  /** Path and query exactly as they go on the request line. */
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** Send the body chunked, without a Content-Length. */
  chunked?: boolean;
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** The public error codes of DESIGN.md §3, each with the only HTTP status it may travel with. */
export const CONTRACT_CODES: Readonly<Record<string, number>> = ERROR_STATUS;

/** Statuses a public endpoint may answer with when nothing is broken (500 is never acceptable). */
export const ALLOWED_ERROR_STATUSES = new Set([400, 401, 402, 403, 404, 405, 409, 413, 429, 503]);

export type Endpoint = 'create-task' | 'get-task' | 'register-phone' | 'pending-tasks' | 'task-status' | 'inbound' | 'phone-health' | 'other';

/** The success status of each endpoint; `other` (unknown paths, wrong methods) has none. */
export const SUCCESS_STATUS: Record<Endpoint, number | undefined> = {
  'create-task': 201,
  'get-task': 200,
  'register-phone': 201,
  'pending-tasks': 200,
  'task-status': 200,
  inbound: 201,
  'phone-health': 200,
  other: undefined,
};

/** Sends one request over node:http (which, unlike fetch, sends repeated headers and odd paths as given). */
export function send(baseUrl: string, fuzz: FuzzRequest, timeoutMs = 20_000): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  // Headers given as an array go out exactly as listed: Host is not added for us.
  const rawHeaders: string[] = ['Host', url.host];
  for (const [name, value] of fuzz.headers) rawHeaders.push(name, value);
  if (fuzz.body !== undefined && !fuzz.chunked) rawHeaders.push('content-length', String(fuzz.body.length));
  if (fuzz.body !== undefined && fuzz.chunked) rawHeaders.push('transfer-encoding', 'chunked');
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers: rawHeaders, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (error) => reject(new Error(`connection dropped while reading the answer: ${error.message}`)));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => reject(new Error(`request failed (dropped connection?): ${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}`)));
    if (fuzz.body !== undefined && fuzz.chunked) {
      // A few uneven chunks, as a streaming client would send them.
      const step = Math.max(1, Math.ceil(fuzz.body.length / 3));
      for (let at = 0; at < fuzz.body.length; at += step) req.write(fuzz.body.subarray(at, at + step));
      req.end();
    } else {
      req.end(fuzz.body);
    }
  });
}

/** The request written out so that it can be replayed by hand (body shortened when long). */
export function describe(fuzz: FuzzRequest): string {
  const body = fuzz.body === undefined ? '(none)' : describeBody(fuzz.body);
  const headers = fuzz.headers.map(([name, value]) => `  ${name}: ${JSON.stringify(value)}`).join('\n');
  return `${fuzz.method} ${fuzz.path}${fuzz.chunked ? ' (chunked)' : ''}\n${headers}\n  body (${fuzz.body?.length ?? 0} bytes): ${body}`;
}

function describeBody(body: Buffer): string {
  const text = body.toString('utf8');
  if (body.length <= 600) return JSON.stringify(text);
  // Summarise a big body by its runs, so a 64 KiB filler reads as `"x" × 65000`.
  return `${JSON.stringify(text.slice(0, 200))} … ${JSON.stringify(text.slice(-120))}`;
}

/**
 * Property 1 for one answer: a status the contract allows for that endpoint (never 500, never a
 * 5xx but 503), and every non-2xx body exactly `{"error": <contract code matching the status>, "detail": <string>}`.
 * Answers the list of what is wrong (empty when the answer is fine).
 */
export function contractViolations(endpoint: Endpoint, answer: FuzzAnswer): string[] {
  const problems: string[] = [];
  const success = SUCCESS_STATUS[endpoint];
  const isSuccess = success !== undefined && answer.status === success;
  if (!isSuccess && !ALLOWED_ERROR_STATUSES.has(answer.status)) problems.push(`status ${answer.status} is not one the contract allows for ${endpoint}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(answer.text.slice(0, 300))}`);
    return problems;
  }
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  if (!isObject) {
    problems.push(`body is not a JSON object: ${answer.text.slice(0, 300)}`);
    return problems;
  }
  if (answer.status >= 200 && answer.status < 300) return problems;
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (keys.join(',') !== 'detail,error') problems.push(`error body keys are [${keys.join(', ')}], not exactly [error, detail]: ${answer.text.slice(0, 300)}`);
  if (!isErrorCode(record['error'])) problems.push(`error ${JSON.stringify(record['error'])} is not a contract code`);
  else if (CONTRACT_CODES[record['error']] !== answer.status) problems.push(`error ${record['error']} travels with ${CONTRACT_CODES[record['error']]}, not ${answer.status}`);
  if (typeof record['detail'] !== 'string') problems.push(`detail ${JSON.stringify(record['detail'])} is not a string`);
  return problems;
}

export function parsed(answer: FuzzAnswer): any {
  try {
    return JSON.parse(answer.text);
  } catch {
    return undefined;
  }
}
