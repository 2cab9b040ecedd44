import { readFileSync } from 'node:fs';

/** Linux's USER_HZ, the unit of /proc/<pid>/stat times, is 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_S = 100;

/** A process's resident memory now, in MB (from /proc, as the OOM killer counts it). */
export function residentMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * CPU time a process has used so far, in ms (user + system, from /proc). Differences of it per
 * request hold on a busy machine, where throughput and latency do not.
 */
export function cpuMsOf(pid: number): number {
  // Fields after the command name, which is in brackets and may hold spaces: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}
