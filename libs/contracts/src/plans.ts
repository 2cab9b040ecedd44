/** The plans of the specification (Profile A): daily SMS credits and own phones. */
export const PLANS = {
  free: { dailyCredits: 30, phoneLimit: 2 },
  starter: { dailyCredits: 1_000, phoneLimit: 2 },
  basic: { dailyCredits: 2_500, phoneLimit: 3 },
  standard: { dailyCredits: 5_000, phoneLimit: 5 },
  pro: { dailyCredits: 10_000, phoneLimit: 10 },
  business: { dailyCredits: 30_000, phoneLimit: 20 },
  enterprise: { dailyCredits: 50_000, phoneLimit: 50 },
} as const satisfies Record<string, { dailyCredits: number; phoneLimit: number }>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** Profile B: a new self-serve client starts with this many persistent credits. */
export const PROFILE_B_STARTING_CREDITS = 10;

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && Object.hasOwn(PLANS, value);
}
