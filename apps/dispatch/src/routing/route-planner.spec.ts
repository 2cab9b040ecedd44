import { describe, expect, it } from 'vitest';
import { RoutePlanner } from './route-planner.js';
import type { RouteCandidate, StickyPhone } from './routing.repository.js';

const CLIENT = 7;

function phone(id: number, overrides: Partial<RouteCandidate> = {}): RouteCandidate {
  return { id, clientId: CLIENT, usable: true, room: null, cap: null, monthCount: 0, sims: 1, lruRank: id, ...overrides };
}

function planner(candidates: RouteCandidate[], mode: 'first' | 'spread' | 'sticky', options: { known?: string[]; sticky?: StickyPhone[] } = {}) {
  return new RoutePlanner('A', candidates, new Map([[CLIENT, mode]]), new Set(options.known ?? []), options.sticky ?? []);
}

describe(RoutePlanner.name, () => {
  it('first: the lowest usable id, whatever was used before', () => {
    const sut = planner([phone(1, { lruRank: 3 }), phone(2, { lruRank: 1 })], 'first');
    expect([1, 2, 3].map((i) => sut.assign({ clientId: CLIENT, recipient: `+3816400000${i}` }, true)?.phoneId)).toEqual([1, 1, 1]);
  });

  it('spread: most room left today, then least recently used, taking turns within a batch', () => {
    const sut = planner([phone(1, { room: 5 }), phone(2, { room: 50 }), phone(3, { room: 50, lruRank: 0 })], 'spread');
    expect([1, 2, 3, 4].map((i) => sut.assign({ clientId: CLIENT, recipient: `+3816400000${i}` }, true)?.phoneId)).toEqual([3, 2, 3, 2]);
  });

  it('sticky: keeps a recipient on its phone and SIM while usable; a new one goes as spread would and is kept there', () => {
    const sut = planner([phone(1), phone(2), phone(3, { sims: 2 })], 'sticky', { sticky: [{ clientId: CLIENT, recipient: '+381640000001', phoneId: 3, sim: 2 }] });
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000001' }, true)).toEqual({ phoneId: 3, sim: 2, sticky: true });
    const fresh = sut.assign({ clientId: CLIENT, recipient: '+381640000002' }, true)!;
    expect(fresh).toEqual({ phoneId: 1, sim: null, sticky: true });
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000002' }, true)).toEqual(fresh);
  });

  it('sticky: a kept phone that is not usable gives way, and the task waits for it only when no other is usable', () => {
    const kept = [{ clientId: CLIENT, recipient: '+381640000001', phoneId: 1, sim: null }];
    expect(planner([phone(1, { usable: false }), phone(2)], 'sticky', { sticky: kept }).assign({ clientId: CLIENT, recipient: '+381640000001' }, true)?.phoneId).toBe(2);
    expect(planner([phone(1, { usable: false }), phone(2, { usable: false, lruRank: 0 })], 'sticky', { sticky: kept }).assign({ clientId: CLIENT, recipient: '+381640000001' }, true)?.phoneId).toBe(1);
  });

  it('gives a phone at its cap no new recipient, but the numbers it has; nowhere when no phone has room', () => {
    const sut = planner([phone(1, { cap: 2, monthCount: 1 }), phone(2, { cap: 1, monthCount: 1 })], 'first', { known: ['2:+381640000009'] });
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000001' }, true)?.phoneId).toBe(1);
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000001' }, true)?.phoneId).toBe(1);
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000009' }, true)?.phoneId).toBe(2);
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000002' }, true)).toBeNull();
  });

  it('honours a requested phone with room for the recipient, as the specification does', () => {
    const sut = planner([phone(1), phone(2, { cap: 0 })], 'sticky');
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000001', requestedPhoneId: 1 }, true)).toEqual({ phoneId: 1, sim: null, sticky: false });
    expect(sut.assign({ clientId: CLIENT, recipient: '+381640000002', requestedPhoneId: 2 }, true)?.phoneId).toBe(1);
  });
});
