/** Profile A: clients' own phones with daily plans. Profile B: pooled gateways with persistent credits. */
export type Profile = 'A' | 'B';
export const PROFILES: readonly Profile[] = ['A', 'B'];
