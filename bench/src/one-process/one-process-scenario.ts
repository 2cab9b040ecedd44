import type { BenchStack } from '../bench-stack.js';
import type { BenchSettings } from '../bench-settings.js';
import type { LoadResult } from '../load/load-plan.js';
import { runLoad } from '../load/run-load.js';
import { OneProcessImplementation } from './one-process-implementation.js';

/** Clients of the one-process implementation's own: a key, a VIP gateway and credits each, as scenario 1's. */
export interface OneProcessClients {
  clientIds: number[];
  apiKeys: string[];
}

export interface OneProcessResult {
  implementation: LoadResult;
  /** CPU time of its one process per create-task, in ms. */
  cpuMsPerRequest: number;
  /** Its resident memory at the end of the warm-up and its peak during the measured run, in MB. */
  memoryAtRestMb: number;
  memoryUnderLoadMb: number;
  /** smsq's create-tasks per second in scenario 1 over the implementation's. */
  ratio: number;
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * Runs `work` against the one-process implementation, started for the given clients and stopped
 * afterwards; its tasks are then marked sent, so no later scenario finds them pending.
 */
export async function withOneProcess<T>(stack: BenchStack, clients: OneProcessClients, work: (implementation: OneProcessImplementation) => Promise<T>): Promise<T> {
  const implementation = await OneProcessImplementation.start(stack.databaseUrl, clients.clientIds);
  try {
    return await work(implementation);
  } finally {
    await implementation.stop();
    await stack.sql.query(`UPDATE "dispatch"."tasks" SET status = 'sent', sent_at = now() WHERE client_id = ANY($1::int[]) AND status = 'pending'`, [clients.clientIds]);
  }
}

/**
 * Scenario 1b: the one-process implementation of create-task under the load and settings of
 * scenario 1, on clients of its own so that smsq's accounts, gateways and pgbench's range of
 * clients are untouched.
 */
export function oneProcessScenario(stack: BenchStack, settings: BenchSettings, clients: OneProcessClients, smsq: LoadResult): Promise<OneProcessResult> {
  return withOneProcess(stack, clients, async (implementation) => {
    const plan = { kind: 'create-tasks' as const, mode: 'closed' as const, baseUrl: implementation.baseUrl, connections: settings.queue.connections, apiKeys: clients.apiKeys };
    log(`queue, one-process implementation: warm-up ${settings.queue.warmUpS} s`);
    await runLoad({ ...plan, durationMs: settings.queue.warmUpS * 1000 });
    const memoryAtRestMb = implementation.residentMb();
    let memoryUnderLoadMb = memoryAtRestMb;
    const sampler = setInterval(() => (memoryUnderLoadMb = Math.max(memoryUnderLoadMb, implementation.residentMb())), settings.memorySampleMs);
    const cpuBefore = implementation.cpuMs();
    log(`queue, one-process implementation: ${settings.queue.connections} connections for ${settings.queue.durationS} s`);
    const measured = await runLoad({ ...plan, durationMs: settings.queue.durationS * 1000 }).finally(() => clearInterval(sampler));
    const cpuMsPerRequest = round2((implementation.cpuMs() - cpuBefore) / Math.max(1, measured.requests));
    log(`queue, one-process implementation: ${measured.perSecond} requests/s, p99 ${measured.latency.p99Ms} ms, ${measured.errors} errors, ${cpuMsPerRequest} ms of CPU per create-task`);
    if (measured.errors > 0) log(`queue, one-process implementation: errors ${JSON.stringify(measured.errorsByStatus)}\n${implementation.recentOutput()}`);
    return { implementation: measured, cpuMsPerRequest, memoryAtRestMb, memoryUnderLoadMb, ratio: round2(smsq.perSecond / measured.perSecond) };
  });
}
