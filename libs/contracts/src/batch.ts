import { DomainError, domainErrorFrom, type ErrorBody } from './errors.js';

/** The most items one batch message carries: creates gathered by a gateway, debits asked by dispatch. */
export const MAX_BATCH_ITEMS = 100;

/** The most task keys one settlement message asks about: a sweep round of billing's held charges. */
export const MAX_SETTLE_BATCH = 500;

/** One item's answer inside a batch: what the single command would have answered, or its error. */
export type ItemOutcome<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

export interface BatchAnswer<T> {
  /** One per item, in the order of the command's items. */
  results: ItemOutcome<T>[];
}

/**
 * Settles `work` into an item's outcome. An error that is not the domain's becomes
 * `internal_error`, which a caller treats as "outcome unknown", exactly as a failed single command.
 */
export async function outcomeOf<T>(work: Promise<T>): Promise<ItemOutcome<T>> {
  try {
    return { ok: true, value: await work };
  } catch (error) {
    const domainError = domainErrorFrom(error);
    return { ok: false, error: domainError ? domainError.toBody() : { error: 'internal_error', detail: 'the item could not be handled' } };
  }
}

/** The item's value, or its error thrown as the DomainError the single command would have thrown. */
export function valueOf<T>(outcome: ItemOutcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw domainErrorFrom(outcome.error) ?? new DomainError('internal_error', 'the item could not be handled');
}
