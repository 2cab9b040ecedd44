import { InvalidRequestError } from '@smsq/contracts';
import { describe, expect, it } from 'vitest';
import { newMessageOf } from './new-message.js';

describe(newMessageOf.name, () => {
  const reply = { clientId: 3, phoneId: 7, from: '+38164123456', message: 'Yes', receivedAt: '2026-11-22T11:00:00+01:00' };

  it('keeps the owner, the sender and the text, and reads the time as an instant', () => {
    expect(newMessageOf(reply, 'messages[0]')).toEqual({
      clientId: 3,
      phoneId: 7,
      sender: '+38164123456',
      body: 'Yes',
      encrypted: false,
      keyword: null,
      receivedAt: new Date('2026-11-22T10:00:00.000Z'),
      externalId: null,
      dedupKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it("keeps a sealed reply's keyword as its worker read it, and no keyword of a readable one", () => {
    expect(newMessageOf({ ...reply, encrypted: true, keyword: 'opt_out' }, 'messages[0]')).toMatchObject({ encrypted: true, keyword: 'opt_out' });
    expect(newMessageOf({ ...reply, keyword: 'opt_out' }, 'messages[0]')).toMatchObject({ encrypted: false, keyword: null });
  });

  it('stores an unknown owner as null', () => {
    expect(newMessageOf({ ...reply, clientId: undefined, phoneId: undefined, externalId: 'x1' }, 'messages[0]')).toMatchObject({ clientId: null, phoneId: null, dedupKey: 'ext:-:x1' });
  });

  it.each([
    ['a NUL in the text', { message: 'a\u0000b' }, 'messages[2].message must not contain a NUL character'],
    ['a NUL in the external id', { externalId: 'id\u0000' }, 'messages[2].externalId must not contain a NUL character'],
    ['a client id beyond the INTEGER column', { clientId: 2_147_483_648 }, 'messages[2].clientId is not an id that can exist'],
    ['a phone id beyond the INTEGER column', { phoneId: 1e300 }, 'messages[2].phoneId is not an id that can exist'],
    ['a time without a zone', { receivedAt: '2026-11-22T10:00:00' }, 'messages[2].receivedAt must be an ISO 8601 date-time with a zone (Z or ±hh:mm)'],
  ])('refuses %s as invalid_request, naming the message', (_, change, detail) => {
    const attempt = () => newMessageOf({ ...reply, ...change }, 'messages[2]');

    expect(attempt).toThrow(InvalidRequestError);
    expect(attempt).toThrow(detail);
  });
});
