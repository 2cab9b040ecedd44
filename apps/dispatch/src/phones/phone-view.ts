import type { PhoneDetails, PhoneView } from '@smsq/contracts';
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
  };
}

export function toPhoneDetails(phone: Phone, sentToday: number): PhoneDetails {
  return {
    ...toPhoneView(phone),
    lastSeenAt: phone.lastSeenAt?.toISOString() ?? null,
    lastAssignedAt: phone.lastAssignedAt?.toISOString() ?? null,
    sentToday,
  };
}
