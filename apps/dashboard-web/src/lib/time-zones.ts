/**
 * The time zones offered wherever a client's zone is chosen (a new client, the Settings page):
 * the browser's IANA list, UTC included, with the current value kept even if the list lacks it.
 * The server checks every name the same way whichever form sent it.
 */
export function timeZoneChoices(current?: string): string[] {
  let zones: string[];
  try {
    zones = (Intl as unknown as { supportedValuesOf(key: 'timeZone'): string[] }).supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(['UTC', ...zones]);
  if (current) all.add(current);
  return [...all].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}
