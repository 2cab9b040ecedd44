import { describe, expect, it } from 'vitest';
import { VolumeRefusals } from './volume-refusals.js';

describe(VolumeRefusals.name, () => {
  const clock = { now: 1_000 };
  const refusals = () => new VolumeRefusals(() => clock.now);

  it('holds no task of a phone never refused stale', () => {
    expect(refusals().isStale('http://phone-1', 0)).toBe(false);
  });

  it('holds every task of a refused phone stale while the report is on its way, then those claimed before it landed', () => {
    const sut = refusals();
    clock.now = 1_000;
    sut.refused('http://phone-1');

    expect(sut.isStale('http://phone-1', 500)).toBe(true);
    // Claimed after the refusal but before smsq heard of it: smsq had not paused the phone yet.
    expect(sut.isStale('http://phone-1', 1_500)).toBe(true);
    expect(sut.isStale('http://phone-2', 500)).toBe(false);

    clock.now = 2_000;
    sut.reported('http://phone-1');

    expect(sut.isStale('http://phone-1', 1_500)).toBe(true);
    expect(sut.isStale('http://phone-1', 2_000)).toBe(true);
    // Claimed once smsq had the report: the phone resumed since, the task is sent.
    expect(sut.isStale('http://phone-1', 2_001)).toBe(false);
  });

  it('waits for every refusal report of a phone, when loops side by side were refused', () => {
    const sut = refusals();
    sut.refused('this phone');
    sut.refused('this phone');
    clock.now = 3_000;
    sut.reported('this phone');

    expect(sut.isStale('this phone', 5_000)).toBe(true);

    clock.now = 4_000;
    sut.reported('this phone');
    expect(sut.isStale('this phone', 5_000)).toBe(false);
  });
});
