import type { PhoneDetails, PhoneHealth, PhoneView } from '@smsq/contracts';
import type { Phone } from '../generated/prisma/client.js';
import type { PhoneConditions } from './phone-conditions.js';

export function toPhoneView(phone: Phone, conditions: PhoneConditions): PhoneView {
  return {
    id: phone.id,
    kind: phone.kind,
    clientId: phone.clientId,
    name: phone.name,
    url: phone.url,
    deviceId: phone.deviceId,
    active: phone.active,
    createdAt: phone.createdAt.toISOString(),
    lastSeenAt: phone.lastSeenAt?.toISOString() ?? null,
    health: healthOf(phone),
    state: conditions.stateOf(phone),
    lastContactAt: phone.lastContactAt.toISOString(),
    dailyLimit: phone.dailyLimit,
    perMinute: phone.perMinute,
  };
}

export function toPhoneDetails(phone: Phone, conditions: PhoneConditions, counts: { sentToday: number; waitingTasks: number }): PhoneDetails {
  return {
    ...toPhoneView(phone, conditions),
    lastAssignedAt: phone.lastAssignedAt?.toISOString() ?? null,
    ...counts,
  };
}

function healthOf(phone: Phone): PhoneHealth | null {
  if (phone.healthReportedAt === null) return null;
  return {
    batteryPercent: phone.batteryPercent,
    charging: phone.charging,
    connection: phone.connection,
    reportedAt: phone.healthReportedAt.toISOString(),
  };
}
