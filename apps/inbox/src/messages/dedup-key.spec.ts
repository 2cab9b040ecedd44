import { describe, expect, it } from 'vitest';
import { dedupKeyOf, type DedupSource } from './dedup-key.js';

describe(dedupKeyOf.name, () => {
  const reply: DedupSource = { phoneId: 7, from: '+38164123456', receivedAt: new Date('2026-11-22T10:00:00.000Z'), message: 'Yes, thanks', externalId: null };

  it("uses the phone's own id for the message, scoped to the phone", () => {
    expect(dedupKeyOf({ ...reply, externalId: 'sms-42' })).toBe('ext:7:sms-42');
    expect(dedupKeyOf({ ...reply, phoneId: null, externalId: 'sms-42' })).toBe('ext:-:sms-42');
  });

  it('ignores sender, time and text once the phone gave an id', () => {
    expect(dedupKeyOf({ ...reply, externalId: 'sms-42', message: 'edited' })).toBe(dedupKeyOf({ ...reply, externalId: 'sms-42' }));
  });

  it('is the SHA-256 of phone, sender, instant and text otherwise', () => {
    // sha256("7|+38164123456|2026-11-22T10:00:00.000Z|Yes, thanks")
    expect(dedupKeyOf(reply)).toBe('af993d2569e0c00bdd942310855bcc0725f650e7b455cebe328fd99bc86b6f8c');
  });

  it('tells apart replies that differ in phone, sender, instant or text', () => {
    const keys = [
      reply,
      { ...reply, phoneId: 8 },
      { ...reply, phoneId: null },
      { ...reply, from: '+38164123457' },
      { ...reply, receivedAt: new Date('2026-11-22T10:00:00.001Z') },
      { ...reply, message: 'Yes, thanks!' },
    ].map(dedupKeyOf);

    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is the same for the same instant whatever offset it was written with', () => {
    expect(dedupKeyOf({ ...reply, receivedAt: new Date('2026-11-22T11:00:00+01:00') })).toBe(dedupKeyOf(reply));
  });
});
