/** Java's `String.hashCode()`: over UTF-16 code units, in 32-bit integer arithmetic. */
export function javaStringHash(value: string): number {
  let hash = 0;
  for (let i = 0; i < value.length; i++) hash = (Math.imul(31, hash) + value.charCodeAt(i)) | 0;
  return hash;
}

/** Java's `Date.hashCode()`: the millisecond time's two 32-bit halves, XORed. */
export function javaDateHash(date: Date): number {
  const time = BigInt(date.getTime());
  return Number(BigInt.asIntN(32, time) ^ BigInt.asIntN(32, time >> 32n));
}

/** `31 * hash + next`, in 32-bit integer arithmetic, as a Kotlin `hashCode()` chains its fields. */
export function chainHash(hash: number, next: number): number {
  return (Math.imul(31, hash) + next) | 0;
}
