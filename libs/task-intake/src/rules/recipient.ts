import type { Profile } from '@smsq/contracts';
import { DomainError, withoutSeparators } from '@smsq/contracts';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

export interface RecipientRules {
  profile: Profile;
  /** Profile B: where a number without country code is read; undefined makes such a number unusable. */
  defaultRegion: string | undefined;
}

/**
 * The recipient in E.164. Separators are dropped; `00` counts as `+`. Profile A reads a local
 * `06…` number as Serbian (+3816…); otherwise a number must carry its country code, except that
 * Profile B reads it in SMSQ_DEFAULT_REGION when one is set.
 */
export function normaliseRecipient(input: string, rules: RecipientRules): string {
  const compact = withoutSeparators(input).replace(/^00/, '+');
  if (!/^\+?\d{3,17}$/.test(compact)) throw invalidRecipient(input);
  const region = regionFor(compact, rules);
  if (!compact.startsWith('+') && region === undefined) {
    throw new DomainError('invalid_recipient', 'the recipient needs a country code, e.g. +381641234567');
  }
  const parsed = parsePhoneNumberFromString(compact, region);
  if (!parsed?.isValid()) throw invalidRecipient(input);
  return parsed.number;
}

function regionFor(compact: string, rules: RecipientRules): CountryCode | undefined {
  if (compact.startsWith('+')) return undefined;
  if (rules.profile === 'A') return compact.startsWith('06') ? 'RS' : undefined;
  return rules.defaultRegion as CountryCode | undefined;
}

function invalidRecipient(input: string): DomainError {
  return new DomainError('invalid_recipient', `${JSON.stringify(input.slice(0, 40))} is not a usable phone number`);
}
