import { DomainError } from '@smsq/contracts';
import { UNPARSABLE_BODY } from '@smsq/platform';
import { SEALED_MESSAGE_TEST_VECTORS } from '@smsq/message-crypto';
import { describe, expect, it } from 'vitest';
import { parseInboundBody } from './inbound-request.js';

const A = { profile: 'A' as const, defaultRegion: undefined };

/** The senders of these replies, as they are stored. */
function sendersOf(rules: Parameters<typeof parseInboundBody>[1], ...from: string[]): string[] {
  return parseInboundBody({ messages: from.map((one) => ({ from: one, message: 'STOP' })) }, rules).map((item) => item.from);
}

function codeOf(body: unknown): string | undefined {
  try {
    parseInboundBody(body, A);
    return undefined;
  } catch (error) {
    return (error as DomainError).code;
  }
}

describe(parseInboundBody.name, () => {
  it('takes a batch or a single message, normalising numbers and keeping sender ids', () => {
    expect(parseInboundBody({ from: '+381 64 123 4567', message: 'hi' }, A)).toEqual([{ from: '+381641234567', message: 'hi', encrypted: false, keyword: undefined, receivedAt: undefined, externalId: undefined }]);
    const messages = [
      { from: 'VODAFONE', message: 'Your balance', received_at: '2026-11-22 10:00:00', external_id: 'sms-1' },
      { from: '00381641234567', message: '' },
    ];
    const batch = parseInboundBody({ messages }, A);
    expect(batch.map((item) => item.from)).toEqual(['VODAFONE', '+381641234567']);
    expect(batch[0]).toMatchObject({ receivedAt: '2026-11-22 10:00:00', externalId: 'sms-1' });
  });

  it('reads a number written in national form as create-task reads a recipient, so its STOP meets the tasks sent to it', () => {
    expect(sendersOf(A, '0645509401', '064 550 9401', '(064) 550-94-01')).toEqual(['+381645509401', '+381645509401', '+381645509401']);
    expect(sendersOf({ profile: 'B', defaultRegion: 'DE' }, '015123456789', '+381645509401')).toEqual(['+4915123456789', '+381645509401']);
  });

  it('keeps a sender that is no phone number as written: an alphanumeric id, a short code, a national number with no region to read it in', () => {
    expect(sendersOf(A, 'Bank', 'VODAFONE', '1234', '0111234567')).toEqual(['Bank', 'VODAFONE', '1234', '0111234567']);
    expect(sendersOf({ profile: 'B', defaultRegion: undefined }, '0645509401', '88000')).toEqual(['0645509401', '88000']);
    expect(sendersOf({ profile: 'B', defaultRegion: 'RS' }, '88000')).toEqual(['88000']);
  });

  it("takes a reply the worker sealed as given, with the keyword it read, and refuses one that is not sealed", () => {
    const sealed = SEALED_MESSAGE_TEST_VECTORS[0]!.sealed;
    expect(parseInboundBody({ from: '+381641234567', message: sealed, encrypted: true, keyword: 'opt_out' }, A)).toEqual([
      { from: '+381641234567', message: sealed, encrypted: true, keyword: 'opt_out', receivedAt: undefined, externalId: undefined },
    ]);
    expect(parseInboundBody({ from: '+381641234567', message: sealed, encrypted: true }, A)[0]!.keyword).toBeUndefined();
    expect(() => parseInboundBody({ from: '+381641234567', message: 'STOP', encrypted: true }, A)).toThrow(/messages\[0\]\.encrypted is true, but its message is not a sealed message/);
    expect(() => parseInboundBody({ from: '+381641234567', message: 'STOP', keyword: 'opt_out' }, A)).toThrow(/keyword goes only with encrypted/);
    expect(() => parseInboundBody({ from: '+381641234567', message: sealed, encrypted: true, keyword: 'stop' }, A)).toThrow(/keyword must be "opt_out" or "opt_in"/);
    expect(() => parseInboundBody({ from: '+381641234567', message: sealed, encrypted: 'yes' }, A)).toThrow(/encrypted must be true or false/);
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
