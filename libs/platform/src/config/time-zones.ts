/**
 * An IANA time zone name that ICU knows. Only names (letters, `/`, `_`, `-`, `+`, digits) are
 * taken: Postgres, which computes local days too, also reads POSIX strings like `UTC+3` with the
 * sign the other way round, and ICU offset strings like `+03:00`, which are not zones.
 */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
