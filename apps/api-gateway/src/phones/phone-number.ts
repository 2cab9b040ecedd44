import { DomainError, InvalidRequestError } from '@smsq/contracts';
import { normaliseRecipient, type RecipientRules } from '@smsq/task-intake';

/**
 * A phone's own number as its owner typed it, read exactly as create-task reads a recipient (so
 * an SMPP source_addr in the same form names it); null forgets it. Not usable: 400
 * `invalid_request` naming `number`.
 */
export function phoneNumberOf(value: string | null, rules: RecipientRules): string | null {
  if (value === null) return null;
  try {
    return normaliseRecipient(value.trim(), rules);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalid_recipient') throw new InvalidRequestError(`number: ${error.detail.replace(/^the recipient /, 'the number ')}`);
    throw error;
  }
}
