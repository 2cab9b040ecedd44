import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Readiness } from '@smsq/platform';
import { DashboardDatabase } from './dashboard-database.js';

@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly database: DashboardDatabase,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.$queryRaw`SELECT 1`);
  }
}
