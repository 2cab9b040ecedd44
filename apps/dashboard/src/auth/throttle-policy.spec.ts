import { describe, expect, it } from 'vitest';
import { lockMsAfter, retryAfterSeconds, SIGN_IN_THROTTLE } from './throttle-policy.js';

describe(lockMsAfter.name, () => {
  it('locks nothing below the limit, then 30 s doubling with each further failure up to 15 minutes', () => {
    const locks = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((failures) => lockMsAfter(failures, SIGN_IN_THROTTLE.emailLimit));

    expect(locks).toEqual([0, 0, 0, 0, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
  });

  it('stays at the cap however many failures there are', () => {
    expect(lockMsAfter(1_000_000, 5)).toBe(15 * 60_000);
  });

  it('applies the IP limit separately', () => {
    expect(lockMsAfter(19, SIGN_IN_THROTTLE.ipLimit)).toBe(0);
    expect(lockMsAfter(20, SIGN_IN_THROTTLE.ipLimit)).toBe(30_000);
  });
});

describe(retryAfterSeconds.name, () => {
  it('rounds up to whole seconds and never says 0 while locked', () => {
    expect(retryAfterSeconds(30_000)).toBe(30);
    expect(retryAfterSeconds(29_001)).toBe(30);
    expect(retryAfterSeconds(1)).toBe(1);
  });
});
