import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { DomainError } from '@smsq/contracts';
import { DashboardConfig } from '../config/dashboard-config.js';
import { AuthService } from './auth.service.js';
import { browserIdsOf } from './browser-cookies.js';
import type { DashboardRequest } from './dashboard-request.js';

/** Routes for signed-in users: 401 `unauthorized` without a live session. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly auth: AuthService,
    private readonly config: DashboardConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    const user = await this.auth.userOf(browserIdsOf(request, this.config.namespace).sessionId);
    if (!user) throw new DomainError('unauthorized', 'sign in first');
    request.user = user;
    return true;
  }
}
