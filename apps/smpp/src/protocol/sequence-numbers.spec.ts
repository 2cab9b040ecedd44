import { describe, expect, it } from 'vitest';
import { SequenceNumbers } from './sequence-numbers.js';

describe(SequenceNumbers.name, () => {
  it('counts from 1 and goes round after 0x7FFFFFFF', () => {
    expect(new SequenceNumbers().next()).toBe(1);
    const sut = new SequenceNumbers(0x7fffffff);

    expect([sut.next(), sut.next()]).toEqual([0x7fffffff, 1]);
  });
});
