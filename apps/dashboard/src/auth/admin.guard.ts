import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { NotFoundError } from '@smsq/contracts';
import type { DashboardRequest } from './dashboard-request.js';

/** Admin routes, after the session guard: to anyone else they do not exist (404), so nothing about them is revealed. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<DashboardRequest>();
    if (request.user?.role !== 'admin') throw new NotFoundError('page');
    return true;
  }
}
