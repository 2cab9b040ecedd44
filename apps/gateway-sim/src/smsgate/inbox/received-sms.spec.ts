import { describe, expect, it } from 'vitest';
import { javaDateHash, javaStringHash } from './java-hash.js';
import { inboxId, receivedMessageId } from './received-sms.js';

// Expected values computed with Java's hashCode rules (32-bit, UTF-16 code units).
describe('the app\'s ids for a received SMS', () => {
  it('hashes strings and dates as Java does', () => {
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('Привет 👋')).toBe(341233702);
    expect(javaDateHash(new Date('2026-07-01T12:00:00.000Z'))).toBe(495772575);
  });

  it('names an SMS by its sender, time, SIM and text: text:<hash> in the inbox, unsigned hex in sms:received', () => {
    const sms = { sender: '+381641234567', text: 'Yes, see you', receivedAt: new Date('2026-07-01T12:00:00.000Z'), simNumber: 1 };

    expect(inboxId(sms)).toBe('text:1081528160');
    expect(receivedMessageId(sms)).toBe('4076cf60');
    expect(receivedMessageId({ ...sms, text: 'Yes, see you!' })).not.toBe('4076cf60');
  });
});
