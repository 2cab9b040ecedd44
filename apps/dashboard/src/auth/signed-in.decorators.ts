import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError, NotFoundError } from '@smsq/contracts';
import type { SessionUser } from '@smsq/dashboard-api';
import type { DashboardRequest } from './dashboard-request.js';

function userOf(context: ExecutionContext): SessionUser {
  const user = context.switchToHttp().getRequest<DashboardRequest>().user;
  if (!user) throw new DomainError('unauthorized', 'sign in first');
  return user;
}

/** The signed-in user (behind SessionGuard). */
export const SignedInUser = createParamDecorator((_: unknown, context: ExecutionContext): SessionUser => userOf(context));

/** The client the signed-in user acts as; a user without one (an admin) has no client pages. */
export const ActingClientId = createParamDecorator((_: unknown, context: ExecutionContext): number => {
  const { clientId } = userOf(context);
  if (clientId === null) throw new NotFoundError('client of this user');
  return clientId;
});
