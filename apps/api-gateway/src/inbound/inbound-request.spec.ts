import { DomainError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { UNPARSABLE_BODY } from '../http/json-body.js';
import { parseInboundBody } from './inbound-request.js';

function codeOf(body: unknown): string | undefined {
  try {
    parseInboundBody(body);
    return undefined;
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe(parseInboundBody.name, () => {
  it('takes a batch or a single message, normalising numbers and keeping sender ids', () => {
    expect(parseInboundBody({ from: '+381 64 123 4567', message: 'hi' })).toEqual([{ from: '+381641234567', message: 'hi', receivedAt: undefined, externalId: undefined }]);
    const batch = parseInboundBody({
      messages: [
        { from: 'VODAFONE', message: 'Your balance', received_at: '2026-11-22 10:00:00', external_id: 'sms-1' },
        { from: '00381641234567', message: '' },
      ],
    });
    expect(batch.map((item) => item.from)).toEqual(['VODAFONE', '+381641234567']);
    expect(batch[0]).toMatchObject({ receivedAt: '2026-11-22 10:00:00', externalId: 'sms-1' });
  });

  it.each([
    [UNPARSABLE_BODY, 'invalid_json'],
    [[], 'invalid_request'],
    [{ messages: [] }, 'invalid_request'],
    [{ messages: 'x' }, 'invalid_request'],
    [{ messages: [{ message: 'no sender' }] }, 'invalid_request'],
    [{ from: '+381641234567' }, 'invalid_request'],
    [{ from: '+381641234567', message: 'nul \u0000' }, 'invalid_request'],
    [{ from: '<script>', message: 'x' }, 'invalid_request'],
    [{ from: '+381641234567', message: 'x', received_at: 5 }, 'invalid_request'],
    [{ from: '+381641234567', message: 'x', external_id: '' }, 'invalid_request'],
    [{ messages: Array.from({ length: 501 }, () => ({ from: '+381641234567', message: 'x' })) }, 'invalid_request'],
  ])('answers %j with %s', (body, code) => {
    expect(codeOf(body)).toBe(code);
  });
});
