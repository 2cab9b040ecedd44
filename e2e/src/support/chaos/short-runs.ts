/** What the two short chaos runs of `npm test` (chaos.e2e.spec.ts, chaos-replicas.e2e.spec.ts) share. */

/** Longer than every bound on silence (the broker's heartbeats notice one within 9 s), shorter than the long run's 20 s. */
export const SHORT_SILENCE_MS = 12_000;

/** Long enough for the real workers to hand an SMSGate phone its 10 s ttl (chaos-phones.ts). */
export const CLAIM_TIMEOUT_S = 14;
