export type QueryValue = string | number | boolean | null | undefined;

/**
 * Builds `?a=1&b=x` from the given parameters, leaving out empty ones (undefined, null, '' and
 * whitespace) so that URLs stay short and filters that are not set are not sent. Keys keep their
 * order; values are encoded. Returns '' when nothing is left.
 */
export function buildQuery(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text === '') continue;
    search.append(key, text);
  }
  const query = search.toString();
  return query === '' ? '' : `?${query}`;
}

/** Reads a positive page number from a query parameter; anything else is page 1. */
export function parsePage(value: string | null | undefined): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
