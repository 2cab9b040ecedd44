const GSON_DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d(:?\d\d)?))?$/;
const QUERY_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?(Z|[+-]\d\d:\d\d)$/;

/** A date in a JSON body, read as leniently as the app's Gson does (ISO 8601, a time needs a zone); undefined if unreadable. */
export function readBodyDate(value: string): Date | undefined {
  return GSON_DATE.test(value) ? validDate(value) : undefined;
}

/** A date in a query string, as strictly as the app's DateTimeParser (`yyyy-MM-dd'T'HH:mm:ss[.SSS]XXX`). */
export function readQueryDate(value: string): Date | undefined {
  return QUERY_DATE.test(value) ? validDate(value) : undefined;
}

function validDate(value: string): Date | undefined {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
