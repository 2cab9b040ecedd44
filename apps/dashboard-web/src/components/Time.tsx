import { formatRelative, wallClockIn } from '../lib/format';

/** An instant shown in a client's time zone and labelled with it: "2026-11-23 12:04:05 (Europe/Belgrade)". */
export function ZonedTime({ iso, timeZone, fallback = '–' }: { iso: string | null | undefined; timeZone: string; fallback?: string }) {
  const wallClock = iso ? wallClockIn(iso, timeZone) : null;
  if (!iso || wallClock === null) return <span>{fallback}</span>;
  return (
    <time dateTime={iso} className="zoned-time">
      {`${wallClock} `}
      <span className="zone">({timeZone})</span>
    </time>
  );
}

/** A local wall-clock time (a task's scheduledAt) as written, labelled with the zone it is in; never converted. `stacked` puts the zone under it, for narrow table cells. */
export function LocalTime({ value, timeZone, stacked = false }: { value: string; timeZone: string; stacked?: boolean }) {
  return (
    <time dateTime={value} className={stacked ? 'zoned-time stacked' : 'zoned-time'}>
      {`${value} `}
      <span className="zone">({timeZone})</span>
    </time>
  );
}

/** "3 min ago", with the exact time in the zone as its tooltip. */
export function RelativeTime({ iso, timeZone, now }: { iso: string; timeZone: string; now?: Date }) {
  const wallClock = wallClockIn(iso, timeZone);
  return (
    <time dateTime={iso} title={wallClock === null ? undefined : `${wallClock} (${timeZone})`}>
      {formatRelative(iso, now)}
    </time>
  );
}
