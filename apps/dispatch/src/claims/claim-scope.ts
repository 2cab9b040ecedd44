import { DomainError, refuseUnboundTokenIn, type Profile } from '@smsq/contracts';
import type { PhoneKind } from '../generated/prisma/client.js';
import { PHONE_KIND_OF_PROFILE } from '../phones/phone-kind.js';

/** The tasks a worker token may claim: those of one phone or gateway, or (`null`) of any active gateway. */
export interface ClaimScope {
  phoneId: number | null;
}

/** The phone or gateway a worker token is bound to, as a claim needs to see it. */
export interface ClaimingPhone {
  id: number;
  kind: PhoneKind;
  active: boolean;
  lastSeenAt: Date | null;
}

/** A poll records the phone as seen only when its last record is older than this, so polling stays read-only. */
export const LAST_SEEN_RESOLUTION_MS = 10_000;

/** Profile A tokens always belong to a phone; only Profile B has unbound workers. */
export function scopeOfUnboundToken(profile: Profile): ClaimScope {
  refuseUnboundTokenIn(profile);
  return { phoneId: null };
}

/** A bound token's phone must exist (as the profile's kind) and be active. */
export function scopeOfBoundToken(profile: Profile, phone: ClaimingPhone | null): ClaimScope {
  if (!phone || phone.kind !== PHONE_KIND_OF_PROFILE[profile]) throw new DomainError('unauthorized', 'the phone of this worker token does not exist');
  if (!phone.active) throw new DomainError('phone_disabled', profile === 'A' ? 'this phone is disabled' : 'this gateway is disabled');
  return { phoneId: phone.id };
}

export function isSeenRecently(phone: ClaimingPhone, now: Date): boolean {
  return phone.lastSeenAt !== null && now.getTime() - phone.lastSeenAt.getTime() < LAST_SEEN_RESOLUTION_MS;
}
