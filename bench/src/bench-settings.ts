/** How long and how big each scenario is; `quick` is for development runs, the full run is what the issue asks. */
export interface BenchSettings {
  mode: 'full' | 'quick';
  clients: number;
  queue: { connections: number; warmUpS: number; durationS: number; baselineClients: number };
  normalLoad: { durationS: number; maxConnections: number };
  deliver: { workers: number; backlog: number; timeoutS: number };
  growth: { small: number; large: number; claims: number };
  /**
   * Scenario 2b: `rounds` pairs of Deliver rounds of `backlog` tasks each, one plain and one while
   * failover works: `moving` gateways disabled during the round and `atLimit` gateways at their
   * daily limit, with `movablePerGateway` waiting tasks each, and `pinned` disabled gateways with
   * `pinnedPerGateway` tasks it may not move.
   */
  failover: { rounds: number; backlog: number; moving: number; atLimit: number; movablePerGateway: number; pinned: number; pinnedPerGateway: number; timeoutS: number };
  memorySampleMs: number;
}

export function benchSettings(quick: boolean): BenchSettings {
  return quick
    ? {
        mode: 'quick',
        clients: 8,
        queue: { connections: 64, warmUpS: 2, durationS: 8, baselineClients: 16 },
        normalLoad: { durationS: 8, maxConnections: 256 },
        deliver: { workers: 32, backlog: 5_000, timeoutS: 300 },
        growth: { small: 1_000, large: 100_000, claims: 200 },
        failover: { rounds: 2, backlog: 4_000, moving: 2, atLimit: 1, movablePerGateway: 3_000, pinned: 2, pinnedPerGateway: 2_000, timeoutS: 300 },
        memorySampleMs: 500,
      }
    : {
        mode: 'full',
        clients: 20,
        queue: { connections: 64, warmUpS: 5, durationS: 30, baselineClients: 16 },
        normalLoad: { durationS: 30, maxConnections: 256 },
        deliver: { workers: 32, backlog: 100_000, timeoutS: 1_800 },
        growth: { small: 1_000, large: 1_000_000, claims: 400 },
        failover: { rounds: 3, backlog: 15_000, moving: 4, atLimit: 2, movablePerGateway: 10_000, pinned: 4, pinnedPerGateway: 5_000, timeoutS: 900 },
        memorySampleMs: 500,
      };
}

/** Issue 11's targets on the 2-core machine. */
export const TARGETS = {
  /** smsq / pgbench, and smsq / the one-process implementation (scenario 1b). */
  queueRatio: 1.0,
  queueOneProcessRatio: 0.5,
  deliverRatio: 0.8,
  /** Scenario 2b (issue 18): Deliver while the failover sweep works / Deliver alone, in the same run. */
  failoverRatio: 0.95,
  claimGrowth: 1.5,
  halfLoadP99Ms: 50,
  /** Scenario 4b: p99 of create-task at this fixed rate. */
  fixedRatePerS: 100,
  fixedRateP99Ms: 20,
  /** Resident memory under scenario 1: the largest service, and the four together. */
  residentMb: 200,
  residentTotalMb: 500,
} as const;
