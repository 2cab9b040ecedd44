import { ArrayMaxSize, IsArray, IsInt, IsPositive } from 'class-validator';
import { IsEntityId } from '../validation.js';
import type { PlanName } from '../plans.js';

export class AccountShowQuery {
  @IsEntityId() clientId!: number;
}

/** Several clients' accounts, for a page of a list (admin): answered `AccountView[]` in the same order. */
export class AccountsShowQuery {
  @IsArray() @ArrayMaxSize(200) @IsInt({ each: true }) @IsPositive({ each: true }) clientIds!: number[];
}

/** A client's plan and credits as billing sees them now (a due refill is applied first). */
export interface AccountView {
  clientId: number;
  plan: PlanName;
  dailyAllowance: number;
  phoneLimit: number;
  dailyRemaining: number;
  bonusRemaining: number;
  creditsRemaining: number;
  /** Profile A: when the daily bucket refills next; null in Profile B. */
  periodEndsAt: string | null;
}
