import type { PauseReason, PhoneDetails, PhoneHealth, PhoneView } from '@smsq/contracts';
import type { Phone } from '../generated/prisma/client.js';
import type { PhoneConditions } from './phone-conditions.js';
import type { PhoneCounts } from './phones.repository.js';

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
    monthlyRecipients: phone.monthlyRecipients,
    jitter: phone.jitter,
    sims: phone.sims,
    number: phone.number,
    ...pauseOf(phone),
  };
}

/** Its pause while it lasts; a pause that is over reads as none, whether or not the watch has cleared it yet. */
function pauseOf(phone: Phone, now = new Date()): Pick<PhoneView, 'pausedUntil' | 'pauseReason'> {
  if (phone.pausedUntil === null || phone.pausedUntil <= now) return { pausedUntil: null, pauseReason: null };
  return { pausedUntil: phone.pausedUntil.toISOString(), pauseReason: (phone.pauseReason as PauseReason | null) ?? 'carrier_volume' };
}

export function toPhoneDetails(phone: Phone, conditions: PhoneConditions, counts: PhoneCounts): PhoneDetails {
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
