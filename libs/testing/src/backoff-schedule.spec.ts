import { describe, expect, it } from 'vitest';
import { BackoffSchedule } from './backoff-schedule.js';

describe(BackoffSchedule.name, () => {
  const sut = new BackoffSchedule(100, 400);

  it('allows each wait to be a fifth shorter than its doubling, up to the cap', () => {
    expect([0, 1, 2, 3, 4].map((retry) => sut.shortestWait(retry))).toEqual([80, 160, 320, 320, 320]);
  });

  it('counts the attempts that fit since the first: the earliest are at 0, 80, 240, 560 and 880 ms', () => {
    expect([0, 79, 80, 239, 240, 559, 560, 879, 880].map((elapsed) => sut.mostAttemptsWithin(elapsed))).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5]);
  });

  it('names the waits shorter than the schedule allows', () => {
    expect(sut.tooShortWaits([0, 100, 300, 650])).toEqual([]);
    expect(sut.tooShortWaits([0, 100, 200, 650])).toEqual([{ retry: 1, waitedMs: 100, shortestMs: 160 }]);
  });
});
