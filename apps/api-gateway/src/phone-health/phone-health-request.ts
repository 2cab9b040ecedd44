import { InvalidRequestError, PHONE_CONNECTION_PATTERN } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';

/** What a phone reports of itself; a field it left out (or sent as null) is absent. */
export interface PhoneHealthReport {
  batteryPercent?: number;
  charging?: boolean;
  connection?: string;
}

/**
 * The phone-health body: `{"battery_percent"?: 0–100, "charging"?: boolean, "connection"?: "<1–40
 * printable characters>"}`, at least one of them. Other fields are ignored.
 */
export function parsePhoneHealth(body: unknown): PhoneHealthReport {
  const record = jsonObjectOf(body, 'a JSON object with battery_percent, charging or connection');
  const { battery_percent: battery, charging, connection } = record;
  const report: PhoneHealthReport = {};
  if (battery !== undefined && battery !== null) {
    if (typeof battery !== 'number' || !Number.isInteger(battery) || battery < 0 || battery > 100) throw new InvalidRequestError('battery_percent must be a whole number from 0 to 100');
    report.batteryPercent = battery;
  }
  if (charging !== undefined && charging !== null) {
    if (typeof charging !== 'boolean') throw new InvalidRequestError('charging must be true or false');
    report.charging = charging;
  }
  if (connection !== undefined && connection !== null) {
    if (typeof connection !== 'string' || !PHONE_CONNECTION_PATTERN.test(connection)) throw new InvalidRequestError('connection must be 1 to 40 printable characters');
    report.connection = connection;
  }
  if (Object.keys(report).length === 0) throw new InvalidRequestError('report at least one of battery_percent, charging and connection');
  return report;
}
