import { DomainError } from './errors.js';

/** Profile A: clients' own phones with daily plans. Profile B: pooled gateways with persistent credits. */
export type Profile = 'A' | 'B';
export const PROFILES: readonly Profile[] = ['A', 'B'];

/**
 * A worker token bound to no phone acts for every gateway, which only Profile B has: in Profile A
 * a token always belongs to a phone, and one without is no valid token.
 */
export function refuseUnboundTokenIn(profile: Profile): void {
  if (profile === 'A') throw new DomainError('unauthorized', 'a worker token must belong to a phone');
}
