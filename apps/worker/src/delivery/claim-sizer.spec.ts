import { describe, expect, it } from 'vitest';
import { MAX_CLAIM_LIMIT } from '../config/worker-config.js';
import { CLAIM_WINDOW_MS, ClaimSizer } from './claim-sizer.js';

const LEASE = { perMinute: null, claimDeadline: Date.now() + 300_000 };

function sizer(perMinute: number, jitterMs = 0, concurrency = 1, fixed?: number): ClaimSizer {
  return new ClaimSizer({ fixed, pacing: { perMinute, jitterMs }, concurrency });
}

describe(ClaimSizer.name, () => {
  it('gives a phone at one SMS every few seconds 1: SMSGate and Termux at their default pace keep to single claims', () => {
    expect(sizer(12, 2_000).limit()).toBe(1);
    expect(sizer(30).limit()).toBe(1);
    expect(sizer(40, 200).limit()).toBe(1);
  });

  it('claims what a paced phone sends within the claim window, its loops sharing the pace', () => {
    // 600 a minute: one every 100 ms, 20 in two seconds; two loops share the slots.
    expect(CLAIM_WINDOW_MS).toBe(2_000);
    expect(sizer(600).limit()).toBe(20);
    expect(sizer(600, 0, 2).limit()).toBe(10);
    expect(sizer(120).limit()).toBe(4);
  });

  it('keeps smsq’s pace for the phone, bounded by the worker’s own', () => {
    const sut = sizer(600);
    sut.claimed({ perMinute: 60, claimDeadline: Date.now() + 300_000 });
    expect(sut.limit()).toBe(2);
    sut.claimed({ perMinute: 6_000, claimDeadline: Date.now() + 300_000 });
    expect(sut.limit()).toBe(20);
    const unbounded = sizer(0);
    unbounded.claimed({ perMinute: 300, claimDeadline: Date.now() + 300_000 });
    expect(unbounded.limit()).toBe(10);
  });

  it('starts an unpaced phone at 1, then sizes from its measured send time, up to 100', () => {
    const sut = sizer(0);
    expect(sut.limit()).toBe(1);
    sut.sendTook(5);
    expect(sut.limit()).toBe(MAX_CLAIM_LIMIT);
    for (let i = 0; i < 40; i++) sut.sendTook(500);
    expect(sut.limit()).toBe(4);
  });

  it('counts a slow phone’s send time even when paced faster', () => {
    const sut = sizer(600);
    sut.sendTook(1_000);
    expect(sut.limit()).toBe(2);
  });

  it('never claims more than the phone sends before the lease runs out', () => {
    const sut = sizer(600);
    sut.claimed({ perMinute: null, claimDeadline: Date.now() + 500 });
    expect(sut.limit()).toBeLessThanOrEqual(5);
    sut.claimed({ perMinute: null, claimDeadline: Date.now() - 1 });
    expect(sut.limit()).toBe(1);
    sut.claimed(LEASE);
    expect(sut.limit()).toBe(20);
  });

  it('keeps WORKER_CLAIM_LIMIT when set', () => {
    const sut = sizer(12, 2_000, 1, 50);
    sut.sendTook(60_000);
    expect(sut.limit()).toBe(50);
  });

  it('counts the jitter smsq names for the phone in place of the worker\'s own, paced or not', () => {
    // 600 a minute and 2 s of jitter from smsq: 100 ms + 1 s a send on average, one in the window.
    const paced = sizer(600, 0);
    paced.claimed({ perMinute: null, jitterS: 2, claimDeadline: Date.now() + 300_000 });
    expect(paced.limit()).toBe(1);
    // An unpaced gateway jittered by smsq keeps to single claims before any send is measured, and after.
    const unpaced = sizer(0);
    unpaced.claimed({ perMinute: null, jitterS: 10, claimDeadline: Date.now() + 300_000 });
    unpaced.sendTook(5);
    expect(unpaced.limit()).toBe(1);
    // smsq's 0 turns the worker's own jitter off: 600 a minute alone.
    const noJitter = sizer(600, 2_000);
    noJitter.claimed({ perMinute: null, jitterS: 0, claimDeadline: Date.now() + 300_000 });
    expect(noJitter.limit()).toBe(20);
  });
});
