import type { HealthResponse } from 'android-sms-gateway';
import type { PhoneHealth } from '../phone-driver.js';

/** `connection:transport` is a sum of flags (modules/connection/TransportType.kt); 0: no active network. */
const TRANSPORTS: ReadonlyArray<[flag: number, name: string]> = [
  [4, 'WIFI'],
  [2, 'CELLULAR'],
  [8, 'ETHERNET'],
  [1, 'UNKNOWN'],
];

/**
 * What `GET /health` says of the phone (domain/HealthResponse.kt, modules/health). `battery:level`
 * is percent; `battery:charging` is flags (1 charging, 2 on AC, 4 on USB; BatteryMonitor.kt), so
 * anything but 0 means on power. Apps before 2025-01 have no battery or connection checks.
 */
export function phoneHealthOf(response: HealthResponse): PhoneHealth | undefined {
  const checks = typeof response?.checks === 'object' && response.checks !== null ? response.checks : {};
  const level = observed(checks['battery:level']);
  const charging = observed(checks['battery:charging']);
  const transport = observed(checks['connection:transport']);
  const health: PhoneHealth = {
    ...(level === undefined ? {} : { batteryPercent: Math.max(0, Math.min(100, Math.round(level))) }),
    ...(charging === undefined ? {} : { charging: charging !== 0 }),
    ...(transport === undefined ? {} : { connection: transportName(transport) }),
  };
  return Object.keys(health).length === 0 ? undefined : health;
}

/** `WIFI`, `CELLULAR`, `WIFI+CELLULAR`…, or `NONE`. */
export function transportName(flags: number): string {
  const names = TRANSPORTS.filter(([flag]) => (flags & flag) !== 0).map(([, name]) => name);
  return names.length === 0 ? 'NONE' : names.join('+');
}

function observed(check: { observedValue?: unknown } | undefined): number | undefined {
  const value = check?.observedValue;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
