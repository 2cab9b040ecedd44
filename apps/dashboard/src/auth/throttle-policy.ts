/** How failed sign-ins are slowed down (decisions.md, "Dashboard"). */
export const SIGN_IN_THROTTLE = {
  /** Failures are counted over a sliding window of this length. */
  windowMs: 15 * 60_000,
  /** Failures for one address before it is locked. */
  emailLimit: 5,
  /** Failures from one IP address (many people may share it) before it is locked. */
  ipLimit: 20,
  /** The first lock; each further failure doubles it… */
  firstLockMs: 30_000,
  /** …up to this. */
  maxLockMs: 15 * 60_000,
} as const;

/** How password reset requests are slowed down: each request counts, whether or not the address has an account. */
export const PASSWORD_RESET_THROTTLE = {
  windowMs: 60 * 60_000,
  emailLimit: 3,
  ipLimit: 20,
  firstLockMs: 60_000,
  maxLockMs: 60 * 60_000,
} as const;

export type ThrottlePolicy = { readonly [K in keyof typeof SIGN_IN_THROTTLE]: number };

/** How long to lock after the `failures`-th failure in the window: nothing below the limit, then 30 s, 1 min, 2 min… up to 15 min. */
export function lockMsAfter(failures: number, limit: number, policy: Pick<ThrottlePolicy, 'firstLockMs' | 'maxLockMs'> = SIGN_IN_THROTTLE): number {
  if (failures < limit) return 0;
  const doublings = Math.min(failures - limit, 30);
  return Math.min(policy.maxLockMs, policy.firstLockMs * 2 ** doublings);
}

/** A Retry-After value in whole seconds, never 0 while a lock is on. */
export function retryAfterSeconds(remainingMs: number): number {
  return Math.max(1, Math.ceil(remainingMs / 1_000));
}
