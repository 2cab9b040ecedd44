import type { Profile } from '@smsq/contracts';

/** The settings the credit rules depend on, taken from the service's configuration. */
export interface CreditRules {
  profile: Profile;
  /** Profile A: length of one daily period. */
  dailyPeriodS: number;
}
