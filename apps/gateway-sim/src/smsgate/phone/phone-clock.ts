/**
 * The phone's clock and how the app writes its dates: ISO 8601 with milliseconds and the phone's
 * UTC offset (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, so `Z` at offset zero). Real runs read the system
 * time; tests move a fixed time forward, so a message's TTL can pass without waiting for it.
 */
export class PhoneClock {
  constructor(
    private readonly utcOffsetMinutes = 0,
    private readonly source: () => number = Date.now,
  ) {}

  now(): Date {
    return new Date(this.source());
  }

  format(date: Date): string {
    const offset = this.utcOffsetMinutes;
    const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23);
    if (offset === 0) return `${local}Z`;
    const minutes = Math.abs(offset);
    return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  }
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
