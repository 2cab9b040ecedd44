import { Injectable, type OnModuleInit } from '@nestjs/common';
import { databaseAnswersAfresh } from '@smsq/persistence';
import { Readiness } from '@smsq/platform';
import { InboxConfig } from '../config/inbox-config.js';
import { InboxDatabase } from './inbox-database.js';

@Injectable()
export class DatabaseReadiness implements OnModuleInit {
  constructor(
    private readonly readiness: Readiness,
    private readonly database: InboxDatabase,
    private readonly config: InboxConfig,
  ) {}

  onModuleInit(): void {
    this.readiness.register('database', () => this.database.$queryRaw`SELECT 1`, {
      reachable: () => databaseAnswersAfresh(this.config.databaseUrl),
      alive: () => this.database.progress.answering(),
    });
  }
}
