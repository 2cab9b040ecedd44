import { describe, expect, it } from 'vitest';
import { DomainError, domainErrorFrom, ERROR_MEANINGS, ERROR_STATUS, UnavailableError } from './errors.js';

describe(DomainError.name, () => {
  it('maps every code of the contract to its HTTP status', () => {
    expect(ERROR_STATUS).toEqual({
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
    });
  });

  it('travels as the contract body and comes back as the same error', () => {
    const sut = new UnavailableError('billing is down');
    expect(sut.toBody()).toEqual({ error: 'unavailable', detail: 'billing is down' });
    const back = domainErrorFrom(JSON.parse(JSON.stringify(sut.toBody())));
    expect(back?.code).toBe('unavailable');
    expect(back?.status).toBe(503);
    expect(back?.detail).toBe('billing is down');
  });

  it('does not take an arbitrary object for a domain error', () => {
    expect(domainErrorFrom({ error: 'no_such_code', detail: 'x' })).toBeUndefined();
    expect(domainErrorFrom(new Error('boom'))).toBeUndefined();
    expect(domainErrorFrom(null)).toBeUndefined();
  });
});

describe('ERROR_MEANINGS', () => {
  it('says in one line what each code of the contract means', () => {
    expect(Object.keys(ERROR_MEANINGS).sort()).toEqual(Object.keys(ERROR_STATUS).sort());
    for (const meaning of Object.values(ERROR_MEANINGS)) expect(meaning).toMatch(/^[^\n]{10,240}\.$/);
  });
});
