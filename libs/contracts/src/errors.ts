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

/** What each code means, one line each: docs/reference/errors.md is generated from it (`npm run docs`). */
export const ERROR_MEANINGS: Record<ErrorCode, string> = {
  invalid_json: 'The body is not valid JSON.',
  invalid_request: 'The request is malformed: a field missing, of the wrong type or out of range, an unknown field, a bad query parameter; `detail` names it.',
  invalid_recipient: 'The recipient (or a number given where one is read as a recipient) is not a usable phone number.',
  invalid_message: 'The message (or a template body) is empty, too long, holds characters that cannot be sent, or is not sealed as `encrypted` says.',
  invalid_scheduled_at: '`scheduled_at` is not a local date and time like `2026-05-01 09:30:00`, or not a real one.',
  no_active_phone: 'Profile A: none of the client\'s phones is active and able to take this recipient.',
  unauthorized: 'The API key or worker token is missing, unknown or revoked, or its client is disabled.',
  insufficient_credits: 'No credits are left: the task is not queued.',
  daily_limit_reached: 'Profile A: the daily credits are used up and no bonus credits are left.',
  phone_disabled: 'The worker token belongs to a phone or gateway an admin disabled: it claims nothing.',
  phone_limit_reached: 'The client\'s plan allows no more phones.',
  not_found: 'Nothing at this path, or the task, phone, template, endpoint or other thing named is not the caller\'s or does not exist.',
  method_not_allowed: 'The path exists but not with this method; `Allow` lists the ones it takes.',
  conflict: 'The request contradicts the current state: a task already claimed or final, a name or `system_id` taken, an `Idempotency-Key` reused with another body.',
  recipient_opted_out: 'The recipient is on the client\'s opt-out list (it replied STOP, or the client put it there): nothing is queued or charged.',
  payload_too_large: 'The body is larger than the endpoint takes.',
  rate_limited: 'Too many requests for this API key (or sign-ins from this address); `Retry-After` says how many seconds to wait.',
  internal_error: 'Something unexpected failed; the request may or may not have been carried out, so check before repeating it.',
  no_active_gateway: 'Profile B: no active gateway can take this task (or, to a worker, none is configured).',
  unavailable: 'A service or store this request needs is not reachable: retry later; the request may or may not have been carried out.',
};

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
