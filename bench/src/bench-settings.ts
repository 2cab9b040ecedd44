import type { SealedSettings } from './sealed-scenario.js';
/** How long and how big each scenario is; `quick` is for development runs, the full run is what the issue asks. */
export interface BenchSettings {
  mode: 'full' | 'quick';
  clients: number;
  queue: { connections: number; warmUpS: number; durationS: number; baselineClients: number };
  /** Scenario 1d: `create-tasks` of `itemsPerRequest` items from `connections` connections; its baseline is scenario 1's pgbench script. */
  bulk: { connections: number; itemsPerRequest: number; warmUpS: number; durationS: number };
  normalLoad: { durationS: number; maxConnections: number };
  /** Scenario 4c: `requests` lone create-tasks, `pauseMs` apart, after `warmUp` unmeasured ones, against smsq and the one-process implementation. */
  rest: { warmUp: number; requests: number; pauseMs: number };
  /** Scenarios 2 and 2c; `batchSize`: what each worker of 2c claims at most per request. */
  deliver: { workers: number; backlog: number; timeoutS: number; batchSize: number };
  growth: { small: number; large: number; claims: number };
  /**
   * Scenario 2b: `rounds` pairs of Deliver rounds of `backlog` tasks each, one plain and one while
   * failover works: `moving` gateways disabled during the round and `atLimit` gateways at their
   * daily limit, with `movablePerGateway` waiting tasks each, and `pinned` disabled gateways with
   * `pinnedPerGateway` tasks it may not move.
   */
  failover: { rounds: number; backlog: number; moving: number; atLimit: number; movablePerGateway: number; pinned: number; pinnedPerGateway: number; timeoutS: number };
  /** Scenario 5: the first page of conversations of a client with this history. */
  conversations: { tasks: number; numbers: number; replies: number; requests: number };
  /** Scenario 7: `rounds` of a starting worker opening `messages` sealed messages after its first. */
  sealed: SealedSettings;
  /**
   * Scenarios 2d and 3b (issue 41): `clients` clients of their own with `gatewaysPerClient` VIP
   * gateways each send to `recipients` numbers; the rules on are sticky routing, send windows
   * covering the whole week and a cap of `cap` recipients a month on every gateway (never reached).
   * 2d: `pairs` pairs of rounds, each `backlog` tasks created through `create-tasks`
   * (`itemsPerRequest` items a request from `connections` connections), then drained by Deliver's
   * workers. 3b: `claimPairs` pairs of scenario 3's lone claims at its small backlog.
   */
  rules: {
    clients: number;
    gatewaysPerClient: number;
    recipients: number;
    cap: number;
    backlog: number;
    pairs: number;
    connections: number;
    itemsPerRequest: number;
    claimPairs: number;
    timeoutS: number;
  };
  /**
   * Scenario 6 (issue 42), on a client of its own (an API key, a VIP gateway, bonus credits and an
   * SMPP credential) texting `recipients` numbers. 6: `pairs` pairs of rounds of `tasks` tasks each,
   * one round through create-task over HTTP from `window` connections, the other through submit_sm
   * on one transmitter bind with `window` outstanding, after an unmeasured round of `warmUpTasks` of
   * each. 6b: `lonePairs` pairs of rounds of `loneRequests` lone requests, `pauseMs` apart, one
   * create-task at a time against one submit_sm at a time, after `loneWarmUp` unmeasured of each.
   */
  smpp: {
    recipients: number;
    window: number;
    tasks: number;
    warmUpTasks: number;
    pairs: number;
    lonePairs: number;
    loneWarmUp: number;
    loneRequests: number;
    pauseMs: number;
    timeoutS: number;
  };
  memorySampleMs: number;
}

export function benchSettings(quick: boolean): BenchSettings {
  return quick
    ? {
        mode: 'quick',
        clients: 8,
        queue: { connections: 64, warmUpS: 2, durationS: 8, baselineClients: 16 },
        bulk: { connections: 8, itemsPerRequest: 100, warmUpS: 2, durationS: 8 },
        normalLoad: { durationS: 8, maxConnections: 256 },
        rest: { warmUp: 20, requests: 100, pauseMs: 20 },
        deliver: { workers: 32, backlog: 5_000, timeoutS: 300, batchSize: 50 },
        growth: { small: 1_000, large: 100_000, claims: 200 },
        failover: { rounds: 2, backlog: 4_000, moving: 2, atLimit: 1, movablePerGateway: 3_000, pinned: 2, pinnedPerGateway: 2_000, timeoutS: 300 },
        conversations: { tasks: 100_000, numbers: 20_000, replies: 5_000, requests: 100 },
        rules: { clients: 8, gatewaysPerClient: 3, recipients: 1_000, cap: 100_000, backlog: 4_000, pairs: 2, connections: 8, itemsPerRequest: 100, claimPairs: 3, timeoutS: 300 },
        smpp: { recipients: 1_000, window: 10, tasks: 2_000, warmUpTasks: 500, pairs: 3, lonePairs: 3, loneWarmUp: 20, loneRequests: 100, pauseMs: 20, timeoutS: 30 },
        sealed: { messages: 1_000, rounds: 3 },
        memorySampleMs: 500,
      }
    : {
        mode: 'full',
        clients: 20,
        queue: { connections: 64, warmUpS: 5, durationS: 30, baselineClients: 16 },
        bulk: { connections: 8, itemsPerRequest: 100, warmUpS: 5, durationS: 30 },
        normalLoad: { durationS: 30, maxConnections: 256 },
        rest: { warmUp: 50, requests: 400, pauseMs: 20 },
        deliver: { workers: 32, backlog: 100_000, timeoutS: 1_800, batchSize: 50 },
        growth: { small: 1_000, large: 1_000_000, claims: 400 },
        failover: { rounds: 3, backlog: 15_000, moving: 4, atLimit: 2, movablePerGateway: 10_000, pinned: 4, pinnedPerGateway: 5_000, timeoutS: 900 },
        conversations: { tasks: 100_000, numbers: 20_000, replies: 5_000, requests: 400 },
        rules: { clients: 20, gatewaysPerClient: 3, recipients: 1_000, cap: 100_000, backlog: 15_000, pairs: 3, connections: 8, itemsPerRequest: 100, claimPairs: 5, timeoutS: 900 },
        smpp: { recipients: 1_000, window: 10, tasks: 8_000, warmUpTasks: 1_000, pairs: 5, lonePairs: 5, loneWarmUp: 50, loneRequests: 400, pauseMs: 20, timeoutS: 30 },
        sealed: { messages: 10_000, rounds: 5 },
        memorySampleMs: 500,
      };
}

/**
 * Issue 20's targets on the 2-core machine, every one a ratio to a baseline taken in the same run
 * (and issue 11's and 18's that it kept). Retired by issue 20: Queue one task a request against
 * pgbench (the one-process implementation itself reaches about half of it), the services' memory
 * apart (≤ 500 MB together, ≤ 200 MB each; one process is the default for small installs, and
 * still measured), and the absolute p99s (≤ 50 ms at half load, ≤ 20 ms at 100 a second), which
 * the ratio against the one-process implementation's p99 replaces.
 */
export const TARGETS = {
  /** Scenario 1b: create-tasks per second, smsq / the one-process implementation. */
  queueOneProcessRatio: 1.0,
  /** Scenario 1d: tasks per second through create-tasks / pgbench's one transaction per task. */
  bulkRatio: 1.0,
  /** Scenario 2c: tasks delivered per second with batched claims and reports / pgbench's claim and report per task. */
  deliverRatio: 0.8,
  /** Scenario 2b (issue 18): Deliver while the failover sweep works / Deliver alone, in the same run. */
  failoverRatio: 0.95,
  /** Scenario 3: claim p50 at the large backlog / at the small one. */
  claimGrowth: 1.5,
  /** Scenario 3: claim p99 through the API, one worker, the small backlog / the claim statement's p99 alone. */
  claimOverSql: 3,
  /** Scenario 4: p99 of create-task at half load, smsq / the one-process implementation at the same rate. */
  halfLoadP99Ratio: 2.0,
  /** Scenario 4b: create-task at this fixed rate (measured; its absolute p99 target is retired). */
  fixedRatePerS: 100,
  /** Scenario 4c: p50 of a lone create-task at rest, smsq / the one-process implementation. */
  restP50Ratio: 3,
  /** Scenario 1c: the four services in one process under scenario 1's load. */
  residentTogetherMb: 500,
  /** Scenario 5 (issue 21): p99 of the first page of conversations of a client with 100,000 tasks, in ms (the issue's own bound). */
  conversationsFirstPageMs: 200,
  /** Scenario 2d (issue 41): Deliver with sticky routing, send windows and recipient caps on / with them off, in the same run. */
  rulesDeliverRatio: 0.9,
  /** Scenario 3b (issue 41): p99 of a lone claim with those rules on / with them off, in the same run. */
  rulesClaimP99Ratio: 1.2,
  /** Scenario 6 (issue 42): tasks/s through submit_sm with a window of 10 on one bind / through create-task from 10 connections, in the same run. */
  smppThroughputRatio: 1.0,
  /** Scenario 6b (issue 42): p50 of a lone submit_sm round trip / of a lone create-task, in the same run. */
  smppLoneP50Ratio: 1.5,
  /** Scenario 7: a worker's cost of opening a sealed message (and counting its parts) after its first, in ms (the issue's own bound). */
  sealedOpenMs: 1,
} as const;
