import { DomainError } from '@smsq/contracts';

/** The DomainError a promise rejects with; anything else (or success) fails the test. */
export async function domainErrorOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}
