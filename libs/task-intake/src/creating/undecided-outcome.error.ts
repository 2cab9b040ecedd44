import { UnavailableError } from '@smsq/contracts';

/**
 * A create failed without learning whether it took effect (its answer never came): its key was
 * recorded as abandoned, so the client is told "not queued" and the relay makes that true. An
 * Idempotency-Key's record stays in progress, marked undecided, so a repeat learns the outcome
 * instead of doing the work a second time.
 */
export class UndecidedOutcomeError extends UnavailableError {}
