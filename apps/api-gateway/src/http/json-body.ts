import { DomainError, InvalidRequestError } from '@smsq/contracts';
export { BODY_LIMIT_BYTES } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';

export { UNPARSABLE_BODY };



/** The body as a JSON object: not JSON is `invalid_json`, any other shape `invalid_request`. */
export function jsonObjectOf(body: unknown, expected: string): Record<string, unknown> {
  if (body === UNPARSABLE_BODY) throw new DomainError('invalid_json', 'the body is not valid JSON');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError(`the body must be ${expected}`);
  return body as Record<string, unknown>;
}
