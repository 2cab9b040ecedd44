import type { SmsGateConfig } from '../smsgate-config.js';
import { APP_VERSION } from './app-version.js';

export type HealthStatus = 'pass' | 'warn' | 'fail';

interface CheckResult {
  status: HealthStatus;
  observedValue: number;
  observedUnit: string;
  description: string;
}

const TRANSPORT_WIFI = 4;
const CELLULAR_4G = 4;
const CHARGING_ON_AC = 2 + 1;

/**
 * The app's `GET /health` body: its checks on messages (failures in the last hour), the connection
 * and the battery, and the worst of them as the overall status.
 */
export function deviceHealth(config: SmsGateConfig, lastHour: { processed: number; failed: number }): { version: string; releaseId: number; status: HealthStatus; checks: Record<string, CheckResult> } {
  const { failed, processed } = lastHour;
  const level = config.batteryLevel;
  const online = config.connected;
  const checks: Record<string, CheckResult> = {
    'messages:failed': check(failed > 0 && processed === 0 ? 'fail' : failed > 0 ? 'warn' : 'pass', failed, 'messages', 'Failed messages for last hour'),
    'connection:status': check(online ? 'pass' : 'fail', online ? 1 : 0, 'boolean', 'Internet connection status'),
    'connection:transport': check(online ? 'pass' : 'fail', online ? TRANSPORT_WIFI : 0, 'flags', 'Network transport type'),
    'connection:cellular': check('pass', online ? CELLULAR_4G : 0, 'index', 'Cellular network type'),
    'battery:level': check(level < 10 ? 'fail' : level < 25 ? 'warn' : 'pass', level, 'percent', 'Battery level in percent'),
    'battery:charging': check('pass', config.batteryCharging ? CHARGING_ON_AC : 0, 'flags', 'Is the phone charging?'),
  };
  const statuses = Object.values(checks).map((result) => result.status);
  const status = statuses.includes('fail') ? 'fail' : statuses.includes('warn') ? 'warn' : 'pass';
  return { ...APP_VERSION, status, checks };
}

function check(status: HealthStatus, observedValue: number, observedUnit: string, description: string): CheckResult {
  return { status, observedValue, observedUnit, description };
}
