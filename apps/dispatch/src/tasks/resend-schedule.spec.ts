import { describe, expect, it } from 'vitest';
import { resendScheduledLocal } from './resend-schedule.js';

describe(resendScheduledLocal.name, () => {
  const now = new Date('2027-03-10T08:15:42.917Z');

  it.each([
    ['Belgrade in winter (+01:00)', '2026-12-31T22:30:00.000Z', '2026-12-31 23:30:00', '2027-03-10 09:15:42'],
    ['Kathmandu (+05:45)', '2026-12-31T18:15:00.000Z', '2027-01-01 00:00:00', '2027-03-10 14:00:42'],
    ['New York (−05:00)', '2026-12-01T15:00:00.000Z', '2026-12-01 10:00:00', '2027-03-10 03:15:42'],
    ['an original created “now” with milliseconds', '2026-12-01T15:00:00.999Z', '2026-12-01 16:00:00', '2027-03-10 09:15:42'],
  ])('keeps the offset the original was answered with: %s', (_zone, scheduledAt, scheduledLocal, expected) => {
    expect(resendScheduledLocal({ scheduledAt: new Date(scheduledAt), scheduledLocal }, now)).toBe(expected);
  });
});
