import { DomainError, UnavailableError } from '@smsq/contracts';

/** Profile A: the daily credits are used up and no bonus credits are left. */
export class DailyLimitReachedError extends DomainError {
  constructor() {
    super('daily_limit_reached', 'the daily credits are used up and no bonus credits are left');
  }
}

export class InsufficientCreditsError extends DomainError {
  constructor() {
    super('insufficient_credits', 'no credits are left');
  }
}

/** The caller gave up on this debit already, so charging now would charge for a task nobody creates. */
export class DebitTooLateError extends UnavailableError {
  constructor(deadline: string) {
    super(`the debit arrived after its deadline ${deadline}; nothing was charged`);
  }
}
