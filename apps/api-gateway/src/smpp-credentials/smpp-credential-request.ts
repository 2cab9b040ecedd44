import { InvalidRequestError, MAX_SMPP_SOURCE_ADDRESSES, SMPP_SOURCE_ADDRESS, SMPP_SYSTEM_ID } from '@smsq/contracts';
import { jsonObjectOf } from '@smsq/platform';

/** What a new credential asks for; the password is always smsq's. */
export interface SmppCredentialRequest {
  systemId?: string;
  sourceAddresses?: string[];
}

const FIELDS = ['system_id', 'source_addresses'];

/**
 * POST /smsapi/smpp-credentials: `{"system_id"?: "…", "source_addresses"?: ["…"]}`, both optional
 * (an empty body is fine). Any other field is refused, so a misspelt one is never silently ignored.
 */
export function parseSmppCredentialRequest(body: unknown): SmppCredentialRequest {
  const fields = body === undefined || body === null ? {} : jsonObjectOf(body, 'a JSON object with system_id and source_addresses, both optional');
  const unknown = Object.keys(fields).filter((name) => !FIELDS.includes(name));
  if (unknown.length > 0) throw new InvalidRequestError(`unknown field ${unknown.map((name) => JSON.stringify(name)).join(', ')}: only system_id and source_addresses can be given`);
  const systemId = fields['system_id'];
  const sourceAddresses = fields['source_addresses'];
  return {
    ...(systemId === undefined || systemId === null ? {} : { systemId: systemIdOf(systemId) }),
    ...(sourceAddresses === undefined || sourceAddresses === null ? {} : { sourceAddresses: sourceAddressesOf(sourceAddresses) }),
  };
}

function systemIdOf(value: unknown): string {
  if (typeof value !== 'string' || !SMPP_SYSTEM_ID.test(value)) {
    throw new InvalidRequestError('system_id must be 1 to 15 letters, digits, "_", "-" or "." (SMPP allows 15 characters); leave it out and smsq picks one');
  }
  return value;
}

/** Each a number (`+` and digits) or an alphanumeric sender of at most 11 characters; repeats count once. */
export function sourceAddressesOf(value: unknown): string[] {
  if (!Array.isArray(value)) throw new InvalidRequestError('source_addresses must be a list of sender numbers or names');
  if (value.length > MAX_SMPP_SOURCE_ADDRESSES) throw new InvalidRequestError(`source_addresses may list at most ${MAX_SMPP_SOURCE_ADDRESSES} senders, got ${value.length}`);
  value.forEach((address, index) => {
    if (typeof address !== 'string' || !SMPP_SOURCE_ADDRESS.test(address)) {
      throw new InvalidRequestError(`source_addresses[${index}] must be a number (+ and up to 20 digits) or a sender name of 1 to 11 letters, digits, spaces, ".", "_" or "-"`);
    }
  });
  return [...new Set(value as string[])];
}
