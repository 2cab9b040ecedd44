import type { Profile } from '@smsq/contracts';
import type { PhoneKind } from '../generated/prisma/client.js';

/** The kind of phone a profile delivers through: own phones in A, pooled gateways in B. */
export const PHONE_KIND_OF_PROFILE: Record<Profile, PhoneKind> = { A: 'own', B: 'gateway' };
