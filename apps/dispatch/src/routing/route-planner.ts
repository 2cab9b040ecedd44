import type { Profile, RoutingMode } from '@smsq/contracts';
import type { RouteRequest } from './route-request.js';
import type { RouteCandidate, StickyPhone } from './routing.repository.js';

/** Where a task goes: its phone, the SIM to send from (null: the phone's default), and whether it keeps its recipient there. */
export interface Route {
  phoneId: number;
  sim: number | null;
  /** Routed by its client's sticky mode: the recipient is kept on this phone (and SIM). */
  sticky: boolean;
}

/** A candidate as one batch of routes sees it, its month and its turn moving as the batch assigns. */
interface Slot extends RouteCandidate {
  /** 0 while the batch has not assigned it; else its place among the batch's assignments (later is more recent). */
  assignedInBatch: number;
}

/**
 * The routes of one batch of requests, as if they were routed one after another (DESIGN §2–§3 for
 * `first`, and the client's routing mode otherwise): each assignment moves its phone to the back
 * of least-recently-used order and counts a new recipient against its monthly cap, so the tasks
 * of one batch take turns and never pass a cap, exactly as the same tasks routed one by one would.
 *
 * Per request: a requested phone of the client (a VIP gateway in Profile B) when it has room for
 * the recipient; for a sticky client, the phone its recipient is kept on while that one is usable;
 * else the first usable phone in the mode's order (`first`: lowest id for own phones, least
 * recently used for gateways; `spread` and `sticky`: most room left today, then least recently
 * used), in Profile B then the shared pool by least recently used; else, with `fallBack`, the
 * first in that order whatever its contact (the task waits for it). A phone at its monthly cap
 * never gets a recipient new to it this month.
 */
export class RoutePlanner {
  private readonly pools = new Map<number | null, Slot[]>();
  private assignments = 0;

  private readonly known: Set<string>;
  private readonly sticky: Map<string, StickyPhone>;

  constructor(
    private readonly profile: Profile,
    private readonly candidates: readonly RouteCandidate[],
    private readonly modes: ReadonlyMap<number, RoutingMode>,
    /** `phoneId:number` of the recipients capped phones were already given this month. */
    private readonly knownAtStart: ReadonlySet<string>,
    private readonly kept: readonly StickyPhone[],
  ) {
    for (const candidate of candidates) {
      const pool = this.pools.get(candidate.clientId) ?? [];
      pool.push({ ...candidate, assignedInBatch: 0 });
      this.pools.set(candidate.clientId, pool);
    }
    this.known = new Set(knownAtStart);
    this.sticky = new Map(kept.map((one) => [`${one.clientId}:${one.recipient}`, one]));
  }

  /** The same planner before any assignment: to try routes without taking them. */
  copy(): RoutePlanner {
    return new RoutePlanner(this.profile, this.candidates, this.modes, this.knownAtStart, this.kept);
  }

  assign({ clientId, recipient, requestedPhoneId, avoidPhoneId }: RouteRequest, fallBack: boolean): Route | null {
    const mode = this.modes.get(clientId) ?? 'first';
    const own = this.inOrder(this.pools.get(clientId) ?? [], mode);
    const shared = this.profile === 'B' ? this.inOrder(this.pools.get(null) ?? [], 'first') : [];
    const fits = (slot: Slot) => this.hasRoomFor(slot, recipient);
    const preferred = (slot: Slot) => slot.usable && slot.id !== avoidPhoneId && fits(slot);

    const requested = requestedPhoneId === undefined ? undefined : own.find((slot) => slot.id === requestedPhoneId && fits(slot));
    if (requested) return this.take(requested, { clientId, recipient, sim: null, sticky: false });

    const keeps = mode === 'sticky' && recipient !== undefined;
    const kept = keeps ? this.sticky.get(`${clientId}:${recipient}`) : undefined;
    const keptSlot = kept && [...own, ...shared].find((slot) => slot.id === kept.phoneId);
    const chosen =
      keptSlot && preferred(keptSlot)
        ? keptSlot
        : (own.find(preferred) ?? shared.find(preferred) ?? (fallBack ? ((keptSlot && fits(keptSlot) ? keptSlot : undefined) ?? own.find(fits) ?? shared.find(fits)) : undefined));
    if (!chosen) return null;
    // A kept SIM the phone no longer has (its owner set one SIM) is chosen again.
    const keptSim = chosen === keptSlot && kept!.sim !== null && kept!.sim <= chosen.sims ? kept!.sim : null;
    return this.take(chosen, { clientId, recipient, sim: keeps ? (keptSim ?? simFor(chosen, recipient)) : null, sticky: keeps });
  }

  /** The pool in the mode's order; the pool itself is left as it is. */
  private inOrder(pool: readonly Slot[], mode: RoutingMode): Slot[] {
    if (mode === 'first') return this.profile === 'A' ? [...pool] : [...pool].sort(byLeastRecentlyUsed);
    return [...pool].sort((a, b) => (b.room ?? Infinity) - (a.room ?? Infinity) || byLeastRecentlyUsed(a, b));
  }

  private hasRoomFor(slot: Slot, recipient: string | undefined): boolean {
    return slot.cap === null || recipient === undefined || this.known.has(`${slot.id}:${recipient}`) || slot.monthCount < slot.cap;
  }

  /** Assigns the task to the slot: it moves to the back of least-recently-used order, and its month and its room today count the task. */
  private take(slot: Slot, task: { clientId: number; recipient: string | undefined; sim: number | null; sticky: boolean }): Route {
    const { clientId, recipient, sim, sticky } = task;
    slot.assignedInBatch = ++this.assignments;
    if (slot.room !== null) slot.room = Math.max(slot.room - 1, 0);
    if (slot.cap !== null && recipient !== undefined && !this.known.has(`${slot.id}:${recipient}`)) {
      this.known.add(`${slot.id}:${recipient}`);
      slot.monthCount++;
    }
    // Keyed by the task's client: a shared-pool gateway has none of its own.
    if (sticky && recipient !== undefined) this.sticky.set(`${clientId}:${recipient}`, { clientId, recipient, phoneId: slot.id, sim });
    return { phoneId: slot.id, sim, sticky };
  }
}

/** Least recently assigned first, as read; the batch's own assignments after all those, in their order. */
function byLeastRecentlyUsed(a: Slot, b: Slot): number {
  if (a.assignedInBatch !== b.assignedInBatch && (a.assignedInBatch === 0 || b.assignedInBatch === 0)) return a.assignedInBatch === 0 ? -1 : 1;
  if (a.assignedInBatch !== 0) return a.assignedInBatch - b.assignedInBatch;
  return a.lruRank - b.lruRank;
}

/** The SIM a new recipient is kept on, on a phone with two: chosen by the number, which splits recipients evenly and needs no state. */
function simFor(slot: Slot, recipient: string | undefined): number | null {
  if (slot.sims <= 1 || recipient === undefined) return null;
  let hash = 0;
  for (const character of recipient) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return 1 + (hash % slot.sims);
}
