/** How long and how big each scenario is; `quick` is for development runs, the full run is what the issue asks. */
export interface BenchSettings {
  mode: 'full' | 'quick';
  clients: number;
  queue: { connections: number; warmUpS: number; durationS: number; baselineClients: number };
  normalLoad: { durationS: number; maxConnections: number };
  deliver: { workers: number; backlog: number; timeoutS: number };
  growth: { small: number; large: number; claims: number };
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
        memorySampleMs: 500,
      }
    : {
        mode: 'full',
        clients: 20,
        queue: { connections: 64, warmUpS: 5, durationS: 30, baselineClients: 16 },
        normalLoad: { durationS: 30, maxConnections: 256 },
        deliver: { workers: 32, backlog: 100_000, timeoutS: 1_800 },
        growth: { small: 1_000, large: 1_000_000, claims: 400 },
        memorySampleMs: 500,
      };
}

/** Issue 11's targets on the 2-core machine. */
export const TARGETS = {
  /** smsq / pgbench, and smsq / the one-process implementation (scenario 1b). */
  queueRatio: 1.0,
  queueOneProcessRatio: 0.5,
  deliverRatio: 0.8,
  claimGrowth: 1.5,
  halfLoadP99Ms: 50,
  /** Scenario 4b: p99 of create-task at this fixed rate. */
  fixedRatePerS: 100,
  fixedRateP99Ms: 20,
  /** Resident memory under scenario 1: the largest service, and the four together. */
  residentMb: 200,
  residentTotalMb: 500,
} as const;
