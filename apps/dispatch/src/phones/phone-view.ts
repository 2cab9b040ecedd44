import type { PhoneDetails, PhoneHealth, PhoneView } from '@smsq/contracts';
import type { Phone } from '../generated/prisma/client.js';

export function toPhoneView(phone: Phone): PhoneView {
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
  };
}

export function toPhoneDetails(phone: Phone, sentToday: number): PhoneDetails {
  return {
    ...toPhoneView(phone),
    lastAssignedAt: phone.lastAssignedAt?.toISOString() ?? null,
    sentToday,
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
