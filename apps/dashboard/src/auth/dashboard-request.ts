import type { SessionUser } from '@smsq/dashboard-api';
import type { FastifyRequest } from 'fastify';

/** A request once the session guard has let it through. */
export type DashboardRequest = FastifyRequest & { user?: SessionUser };
