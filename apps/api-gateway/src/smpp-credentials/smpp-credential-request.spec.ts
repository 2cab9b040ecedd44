import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { parseSmppCredentialRequest } from './smpp-credential-request.js';

describe(parseSmppCredentialRequest.name, () => {
  it('takes a system_id and source addresses, both optional; repeats count once', () => {
    expect(parseSmppCredentialRequest({})).toEqual({});
    expect(parseSmppCredentialRequest(undefined)).toEqual({});
    expect(parseSmppCredentialRequest({ system_id: 'kannel_1', source_addresses: ['ACME', '+381641234567', 'ACME'] })).toEqual({ systemId: 'kannel_1', sourceAddresses: ['ACME', '+381641234567'] });
    expect(parseSmppCredentialRequest({ system_id: null, source_addresses: [] })).toEqual({ sourceAddresses: [] });
  });

  it.each([
    [{ system_id: '' }, 'system_id must be 1 to 15'],
    [{ system_id: 'a'.repeat(16) }, 'system_id must be 1 to 15'],
    [{ system_id: 'has space' }, 'system_id must be 1 to 15'],
    [{ system_id: 7 }, 'system_id must be 1 to 15'],
    [{ source_addresses: 'ACME' }, 'source_addresses must be a list'],
    [{ source_addresses: ['ACME', 'TwelveLetter'] }, 'source_addresses[1]'],
    [{ source_addresses: [12] }, 'source_addresses[0]'],
    [{ source_addresses: Array.from({ length: 51 }, (_, index) => `S${index}`) }, 'at most 50'],
    [{ password: 'mine' }, 'unknown field "password"'],
    [[], 'the body must be'],
  ])('refuses %j with invalid_request: %s', (body, detail) => {
    expect(() => parseSmppCredentialRequest(body)).toThrow(expect.objectContaining({ code: 'invalid_request', detail: expect.stringContaining(detail) }));
  });

  it('answers a body that is not JSON with invalid_json', () => {
    expect(() => parseSmppCredentialRequest(UNPARSABLE_BODY)).toThrow(expect.objectContaining({ code: 'invalid_json' }));
  });
});
