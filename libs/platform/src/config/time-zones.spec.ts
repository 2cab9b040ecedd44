import { describe, expect, it } from 'vitest';
import { isTimeZone } from './time-zones.js';

describe(isTimeZone.name, () => {
  it.each(['Europe/Belgrade', 'America/New_York', 'UTC', 'Etc/GMT+3', 'America/Port-au-Prince'])('takes %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  it.each(['Mars/Olympus', '', 'UTC+3', '+03:00', 'Europe/Belgrade\u0000', ' Europe/Belgrade', '../etc/passwd'])('refuses %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});
