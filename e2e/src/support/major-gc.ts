/** A major garbage collection: the process, when its trace line arrived, and the heap in use it left. */
export interface MajorGc {
  pid: number;
  at: number;
  heapMb: number;
}

/** `--trace-gc`'s line for a major collection, e.g. `[4242:0x5d1e]  8123 ms: Mark-Compact 99.7 (133.3) -> 45.7 (80.1) MB, …`. */
const MAJOR_GC_LINE = /^\[(\d+):0x[0-9a-f]+\]\s+[\d.]+ ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/;

export function majorGcOf(line: string, at = Date.now()): MajorGc | undefined {
  const match = MAJOR_GC_LINE.exec(line);
  return match ? { pid: Number(match[1]), at, heapMb: Number(match[2]) } : undefined;
}
