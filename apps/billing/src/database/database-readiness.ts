import { Injectable, type OnModuleInit } from '@nestjs/common';
import { databaseAnswersAfresh } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { BillingConfig } from '../config/billing-config.js';
import { BillingDatabase } from './billing-database.js';

@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly database: BillingDatabase,
    private readonly config: BillingConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.sql.$queryRaw`SELECT 1`, {
      reachable: () => databaseAnswersAfresh(this.config.databaseUrl),
      alive: () => this.database.progress.answering(),
    });
  }
}
