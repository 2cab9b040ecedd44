import { Injectable, type OnModuleInit } from '@nestjs/common';
import { databaseAnswersAfresh } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { DashboardConfig } from '../config/dashboard-config.js';
import { DashboardDatabase } from './dashboard-database.js';

@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly database: DashboardDatabase,
    private readonly config: DashboardConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.$queryRaw`SELECT 1`, {
      reachable: () => databaseAnswersAfresh(this.config.databaseUrl),
      alive: () => this.database.progress.answering(),
    });
  }
}
