/** The error codes of the public API (DESIGN.md §3) and the HTTP status each one maps to. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_recipient: 400,
  invalid_message: 400,
  invalid_scheduled_at: 400,
  no_active_phone: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  daily_limit_reached: 402,
  phone_disabled: 403,
  phone_limit_reached: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  recipient_opted_out: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal_error: 500,
  no_active_gateway: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The JSON error body of the contract, also the shape an RPC error travels in. */
export interface ErrorBody {
  error: ErrorCode;
  detail: string;
}

/** A rule of the domain was not met; carries a contract error code and a human detail. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = new.target.name;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return { error: this.code, detail: this.detail };
  }
}

export class InvalidRequestError extends DomainError {
  constructor(detail: string) {
    super('invalid_request', detail);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(detail: string) {
    super('conflict', detail);
  }
}

/** The recipient answered STOP (or was put on the client's opt-out list): nothing is queued or charged. */
export class RecipientOptedOutError extends DomainError {
  constructor(number: string) {
    super('recipient_opted_out', `${number} has opted out of your messages; it is on your opt-out list until it replies START or you remove it`);
  }
}

export class UnavailableError extends DomainError {
  constructor(detail = 'a service this request needs is not reachable; retry later') {
    super('unavailable', detail);
  }
}

/**
 * Whether an answer with this code leaves open what the request did: the service may have done
 * the work before failing (or its answer was lost). Every other code is a refusal of work not done.
 */
export function leavesOutcomeOpen(code: string): boolean {
  return code === 'unavailable' || code === 'internal_error';
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/** Rebuilds a DomainError from an error body received over the broker; anything else is not one. */
export function domainErrorFrom(value: unknown): DomainError | undefined {
  if (value instanceof DomainError) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const { error, detail } = value as Record<string, unknown>;
  if (!isErrorCode(error)) return undefined;
  return new DomainError(error, typeof detail === 'string' ? detail : error);
}
