/** An error's message, or the thrown value as text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a request got no HTTP answer, in a few words: `ECONNREFUSED`, `timed out after 10000 ms`… */
export function describeFetchFailure(error: unknown, timeoutMs?: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return timeoutMs === undefined ? 'timed out' : `timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  return reasonOf(error);
}

/** The body as JSON when it is JSON, else its text. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A short reason from an error answer: its `error` and `detail` (the contract's shape), or its text. */
export function describeErrorBody(body: unknown, maxLength = 200): string {
  let text: string;
  if (typeof body === 'object' && body !== null) {
    const fields = body as Record<string, unknown>;
    text = [fields['error'], fields['detail'] ?? fields['message']].filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
  } else {
    text = typeof body === 'string' ? body.trim().replace(/\s+/g, ' ') : '';
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** `Retry-After` in milliseconds, as seconds or as an HTTP date; undefined when absent or unusable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
